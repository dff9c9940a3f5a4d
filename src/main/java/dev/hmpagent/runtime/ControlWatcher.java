package dev.hmpagent.runtime;

import dev.hmpagent.cycle.TickLoop;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.store.ControlRequestsDao;
import dev.hmpagent.store.HaltFlag;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.Store;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The second reader of the control channel: every {@link #EVERY} on its own connection it looks for
 * new {@code control_requests}, so a halt reaches the agent while the tick thread waits on a slow
 * LLM call. A halt cancels that call at once; every request wakes the loop, which then reads the
 * persisted safety state itself. The state was already moved by whoever asked; this only makes the
 * running agent act on it now instead of at its next poll.
 */
final class ControlWatcher implements AutoCloseable {
    static final Duration EVERY = Duration.ofMillis(20);

    private final Store store;
    private final ControlRequestsDao requests;
    private final TickLoop loop;
    private final long pid;
    private final ScheduledExecutorService thread;
    private long seen;
    private long version = Long.MIN_VALUE;
    private final HaltFlag flag;
    private boolean flagObeyed;
    private final Runnable onHalt;

    /**
     * @param store  a connection only this watcher uses (it is closed with the runtime, not here)
     * @param onHalt also run on every halt, on this thread, after the cycle was told (kills running processes)
     */
    ControlWatcher(Store store, TickLoop loop, Runnable onHalt) {
        this.onHalt = Objects.requireNonNull(onHalt, "onHalt");
        this.store = Objects.requireNonNull(store, "store");
        this.requests = new ControlRequestsDao(store);
        this.loop = Objects.requireNonNull(loop, "loop");
        this.pid = ProcessHandle.current().pid();
        this.seen = requests.lastId();
        this.flag = new HaltFlag(store.path());   // older requests were applied to the file by those who made them
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "control");
            t.setDaemon(true);
            return t;
        });
    }

    void start() {
        thread.scheduleWithFixedDelay(this::poll, 0, EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One look at the channel. */
    void poll() {
        obeyFlag();
        try {
            long now = store.dataVersion();
            if (now == version) return;   // nobody committed anything since the last look: no new request either
            for (ControlRequestsDao.Request r : requests.after(seen)) {
                if (r.kind().equals("halt")) {
                    loop.cycle().halt();
                    onHalt.run();
                }
                loop.wake();
                seen = r.id();
                requests.markHandled(r.id(), pid);
            }
            version = now;   // only once the whole batch is handled: a failure mid-way is looked at again next time
        } catch (RuntimeException e) {
            // the file is busy or gone for a moment: the next look is 20 ms away, and the tick thread reads the state too
        }
    }

    /**
     * A halt that could not be written to the file (see {@link HaltFlag}): obeyed at once, and recorded
     * in the file as soon as it takes the write; then the flag is lowered.
     */
    private void obeyFlag() {
        if (!flag.raised()) {
            flagObeyed = false;
            return;
        }
        if (!flagObeyed) {
            loop.cycle().halt();
            onHalt.run();
            loop.wake();
            flagObeyed = true;
        }
        try {
            new SafetyControl(store).halt(flag.reason().orElse(""), Requester.thisProcess());
            flag.lower();
        } catch (RuntimeException e) {
            // still unwritable: the flag stays, and the tick thread keeps obeying it
        }
    }

    @Override
    public void close() {
        thread.shutdown();
        try {
            // longer than a statement on this connection may wait for a lock, so it is never closed under one
            if (!thread.awaitTermination(10, TimeUnit.SECONDS)) thread.shutdownNow();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

}
