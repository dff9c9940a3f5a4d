package dev.hmpagent.cycle;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;

/** A loop's end, announced once: every listener runs on the thread that ran the loop, and waiters are released. */
final class LoopEnding {
    private final CountDownLatch finished = new CountDownLatch(1);
    private final List<Runnable> listeners = new ArrayList<>();   // guarded by this
    private boolean announced;                                     // guarded by this

    /** The loop has ended: releases the waiters, then runs the listeners on this thread. */
    void announce() {
        finished.countDown();
        List<Runnable> now;
        synchronized (this) {
            announced = true;
            now = List.copyOf(listeners);
        }
        now.forEach(Runnable::run);
    }

    /** Runs {@code listener} when the loop has ended (at once, on this thread, if it already has). */
    void onEnd(Runnable listener) {
        Objects.requireNonNull(listener, "listener");
        synchronized (this) {
            if (!announced) {
                listeners.add(listener);
                return;
            }
        }
        listener.run();
    }

    boolean ended() {
        return finished.getCount() == 0;
    }

    void await() throws InterruptedException {
        finished.await();
    }
}
