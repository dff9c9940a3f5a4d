package dev.hmpagent.a2a.client;

import java.util.Optional;
import okhttp3.Call;

/**
 * One send in flight, as a halt sees it: the HTTP call it is making now and the remote task's id once the peer named
 * it. {@link #cancel} aborts the call (and any call attached after it), so a halted send never waits out its timeout.
 */
public final class Sending {
    private Call call;
    private String taskId = "";
    private boolean cancelled;
    /** Counted down when the peer names its task: from then on a halt can ask the peer to cancel it. */
    private final java.util.concurrent.CountDownLatch named = new java.util.concurrent.CountDownLatch(1);

    /** Makes {@code c} the call in flight; cancels it at once when this send was cancelled before. */
    synchronized void attach(Call c) {
        call = c;
        if (cancelled) c.cancel();
    }

    /** The peer named its task. */
    synchronized void task(String id) {
        if (id != null && !id.isEmpty()) {
            taskId = id;
            named.countDown();
        }
    }

    /** Waits at most {@code max} for the peer to name its task; whether it did. */
    boolean awaitTask(java.time.Duration max) throws InterruptedException {
        return named.await(max.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /** The remote task's id, once the peer named it. */
    public synchronized Optional<String> taskId() {
        return taskId.isEmpty() ? Optional.empty() : Optional.of(taskId);
    }

    /** Waits {@code d}, or less when the send is cancelled meanwhile. */
    synchronized void pause(java.time.Duration d) throws InterruptedException {
        if (!cancelled) wait(Math.max(1, d.toMillis()));
    }

    /** Aborts the call in flight and every later one. */
    public void cancel() {
        Call c;
        synchronized (this) {
            cancelled = true;
            c = call;
            notifyAll();
        }
        if (c != null) c.cancel();
    }

    public synchronized boolean cancelled() {
        return cancelled;
    }
}
