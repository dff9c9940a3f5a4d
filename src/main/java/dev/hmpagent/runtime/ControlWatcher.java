package dev.hmpagent.runtime;

import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.StopSignal;
import dev.hmpagent.store.ControlRequestsDao;
import dev.hmpagent.store.HaltFlag;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.Store;
import dev.hmpagent.text.Text;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The second reader of the control channel: every {@link StopSignal#POLL} on its own connection it looks for
 * new {@code control_requests}, so a halt reaches the agent while the tick thread waits on a slow
 * LLM call. A halt is raised on the {@link StopSignal}, which cancels that call at once; every request wakes the
 * loop, which then reads the persisted safety state itself. The state was already moved by whoever asked; this only
 * makes the running agent act on it now instead of at its next poll.
 */
final class ControlWatcher implements AutoCloseable {
    private final Store store;
    private final ControlRequestsDao requests;
    private final StopSignal stops;
    /** Wakes the tick loop: it reads the persisted state at once instead of at its next poll. */
    private final Runnable wake;
    private final long pid;
    private final ScheduledExecutorService thread;
    private long seen;
    private long version = Long.MIN_VALUE;
    private final HaltFlag flag;
    private final Consumer<ControlRequestsDao.Request> others;
    private final Consumer<String> problems;
    private boolean flagObeyed;

    /**
     * @param store    a connection only this watcher uses (it is closed with the runtime, not here)
     * @param stops    where a halt is raised: what it stops was registered on it by the composition root
     * @param wake     wakes the tick loop
     * @param others   every request that is no halt ({@code spawn}), on this watcher's thread, with its connection's
     *                 tables
     * @param problems told in one line when a halt could not stop everything it stops: what failed may still run
     */
    ControlWatcher(Store store, StopSignal stops, Runnable wake, Consumer<ControlRequestsDao.Request> others,
                   Consumer<String> problems) {
        this.store = Objects.requireNonNull(store, "store");
        this.requests = store.tables().controlRequests();
        this.stops = Objects.requireNonNull(stops, "stops");
        this.wake = Objects.requireNonNull(wake, "wake");
        this.others = Objects.requireNonNull(others, "others");
        this.problems = Objects.requireNonNull(problems, "problems");
        this.pid = ProcessHandle.current().pid();
        // a spawn asked for while this agent was starting (or before it died) is acted on; older halts and notes
        // were applied to the file by those who made them
        this.seen = Math.min(requests.lastId(), requests.firstUnhandled("spawn").orElse(Long.MAX_VALUE) - 1);
        this.flag = new HaltFlag(store.path());   // older requests were applied to the file by those who made them
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "control");
            t.setDaemon(true);
            return t;
        });
    }

    void start() {
        thread.scheduleWithFixedDelay(this::poll, 0, StopSignal.POLL_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** One look at the channel. */
    void poll() {
        obeyFlag();
        try {
            long now = store.dataVersion();
            if (now == version) return;   // nobody committed anything since the last look: no new request either
            for (ControlRequestsDao.Request r : requests.after(seen)) {
                if (r.kind().equals("halt")) halt();
                else others.accept(r);
                wake.run();
                seen = r.id();
                requests.markHandled(r.id(), pid);
            }
            version = now;   // only once the whole batch is handled: a failure mid-way is looked at again next time
        } catch (RuntimeException e) {
            // the file is busy or gone for a moment: the next look is one poll away, and the tick thread reads the
            // state too
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
            halt();
            wake.run();
            flagObeyed = true;
        }
        try {
            new SafetyControl(store).halt(flag.reason().orElse(""), Requester.thisProcess());
            flag.lower();
        } catch (RuntimeException e) {
            // still unwritable: the flag stays, and the tick thread keeps obeying it
        }
    }

    /** Raises the halt: every stopper ran, also when one of them failed (which must not make this halt heard twice). */
    private void halt() {
        try {
            stops.halt();
        } catch (RuntimeException e) {
            // every other stopper ran: the request counts as handled, so the next look does not halt a second time;
            // the person hears what failed, which may still be running
            problems.accept(unstopped(e));
        }
    }

    /** The one line a person reads when a halt's stoppers failed: the first failure, and how many more. */
    static String unstopped(RuntimeException e) {
        int more = e.getSuppressed().length;
        String what = e.getMessage() == null || e.getMessage().isBlank() ? e.getClass().getSimpleName() : e.getMessage();
        return "the halt could not stop everything: " + Text.oneLine(what, 200)
                + (more == 0 ? "" : " (and " + more + " more failure" + (more == 1 ? "" : "s") + ")")
                + "; the agent is halted, but what failed may still be running (the agent's processes carry "
                + dev.hmpagent.process.ProcessRunner.MARKER_VARIABLE + " in their environment)";
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
