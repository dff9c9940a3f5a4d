package dev.hmpagent.cycle;

import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.store.StoreException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Drives {@link Cycle#tick()} on its own thread, paced by a {@link Pacer}: the REPL's wake-or-poll
 * (tick while there is work, otherwise park until {@link #wake()} or the poll interval), or the fixed
 * rate of a headless run (frames at start + n·period; a tick that overruns its period skips the
 * frames it missed, or catches them up, and says so in one line). It counts what it did in memory
 * ({@link #stats()}); an iteration that finds nothing to do writes nothing. {@link #stop(boolean)}
 * either finishes the tick in flight and exits, or first drains: ticks back to back until nothing
 * is left to think about, waiting through an LLM back-off up to the give-up time. The loop also
 * ends by itself, with an {@link End} that says why, when something makes further thinking
 * impossible; whoever waits on it learns through {@link #onEnd(Runnable)}.
 */
public final class TickLoop {
    /**
     * Most ticks a drain runs before giving up: a backstop only. A model that issues commands every tick never idles,
     * and the safety rules (calls without progress, the task cap) stop it first, with a lockout that ends the drain and
     * says why; a bound below the cap cut healthy tasks short (`agent run --until-idle` exited 0 after 20 of a task's 40
     * steps, issue 23).
     */
    static final int MAX_DRAIN_TICKS = 1000;
    /** Draining, how often the loop looks again while a process or delegated call runs (its result also wakes it). */
    static final long RESULT_POLL_MS = 1000;

    /** Why the loop ended. */
    public enum End {
        /** Asked to stop, and (when draining) everything was answered. */
        STOPPED,
        /** An {@link Error} escaped a tick (the agent can no longer be trusted to think), or, draining, ticks kept failing. */
        FAILED,
        /** Draining, the LLM stayed unreachable past the give-up time; messages stay unread. */
        LLM_GAVE_UP,
        /** Draining, the LLM refused the request (a rejected key, an unknown model): nothing will change by waiting. */
        LLM_REJECTED,
        /** The database is damaged, or draining, it stayed unwritable past the give-up time. */
        DATABASE,
        /** Another agent took the file over. */
        LOST_FILE,
        /** The file was deleted or replaced under the running agent: its writes would go to the unlinked file. */
        FILE_GONE,
        /** The persisted safety state is not ACTIVE (halted, locked) and the loop was asked to end on that. */
        SAFETY_STOP
    }

    // Set at construction; safe from any thread.
    private final Cycle cycle;
    private final Pacer pacer;
    private final double hz;
    private final TimeSource time;
    private final Duration giveUp;
    private final BooleanSupplier mayTick;
    private final EventSink events;
    private final LoopCounter counter = new LoopCounter();
    private final LoopEnding ending = new LoopEnding();

    // Any thread: the requests that steer the loop, and why it ended.
    private final AtomicBoolean wakeRequested = new AtomicBoolean();
    private volatile boolean stopRequested;
    private volatile boolean drain;
    private volatile End end;
    private volatile Thread thread;
    private volatile long frameLimit;   // 0: none
    private volatile boolean reportNoOps;

    // Tick thread only.
    private String lastProblem = "";
    private final OverrunLines overruns = new OverrunLines();
    /** Ticks that worked since the drain began. */
    private int drained;

    /**
     * @param pacer   when each iteration runs; owned by this loop from now on
     * @param time    where the loop reads time and waits ({@link TimeSource#system()} outside tests)
     * @param giveUp  while draining, how long the LLM (or the file) may keep failing before the loop ends
     * @param mayTick asked before every iteration on the tick thread; false skips the tick (e.g. the
     *                file was taken over by another agent, whose guard has then ended the loop)
     */
    public TickLoop(Cycle cycle, Pacer pacer, TimeSource time, Duration giveUp, BooleanSupplier mayTick,
                    EventSink events) {
        this.cycle = Objects.requireNonNull(cycle, "cycle");
        this.pacer = Objects.requireNonNull(pacer, "pacer");
        this.hz = pacer.hz();
        this.time = Objects.requireNonNull(time, "time");
        this.giveUp = Objects.requireNonNull(giveUp, "giveUp");
        this.mayTick = Objects.requireNonNull(mayTick, "mayTick");
        this.events = Objects.requireNonNull(events, "events");
    }

    public Cycle cycle() { return cycle; }

    /** Starts the loop on a new thread named "tick". */
    public void start() {
        Thread t = new Thread(this::run, "tick");
        thread = t;
        t.start();
    }

    /** Runs the loop on the calling thread until it ends; returns why it ended. */
    public End run() {
        thread = Thread.currentThread();
        drained = 0;
        long frames = 0;
        boolean catchUp = false;
        pacer.start(time.nanoTime());
        try {
            while (end == null && !(stopRequested && !drain)) {
                // an idle iteration ends a drain only if it began after the stop: input that arrived while an
                // earlier one was finding nothing to do must still be answered
                boolean drainingBefore = stopRequested && drain;
                long began = time.nanoTime();
                TickResult result = iterate(catchUp);
                counter.iteration(result.worked(), catchUp, began, time.nanoTime());
                if (!result.worked() && reportNoOps) events.emit(new AgentEvent.NoOp(stats().noOpTicks()));
                catchUp = false;
                if (end != null) break;
                if (frameLimit > 0 && ++frames >= frameLimit) break;
                if (stopRequested && drain) {
                    if (!drainGoesOn(result, drainingBefore)) break;
                } else {
                    catchUp = pace(result, began);
                }
            }
            endWith(End.STOPPED);
        } finally {
            ending.announce();
        }
        return end;
    }

    /**
     * Draining, after an iteration: whether the drain goes on. A process or delegated call still running keeps it
     * going until its result is in (its own timeout bounds it), and so does the LLM's own idle or pause with a time it
     * set ({@link Cycle#heldUntil()}); an idle given no time ends the drain. Ticks that worked count toward the bound; failed ticks
     * do not (the give-up time bounds them, checked after each one); an idle iteration that began before the stop
     * does not end it (input that arrived meanwhile must still be answered). While the cycle backs off, parks until
     * its next try unless that try would come after the give-up time.
     */
    private boolean drainGoesOn(TickResult result, boolean drainingBefore) {
        boolean troubled = cycle.status().trouble() != CycleStatus.Trouble.NONE;
        if (result.worked() && !troubled) return ++drained < MAX_DRAIN_TICKS;
        if (!result.worked() && !troubled && !drainingBefore) return true;
        // a process or a delegated call still running is work left: its result is answered before the loop ends
        if (!troubled && cycle.awaitingResults()) {
            awaitResult();
            return true;
        }
        // the LLM's own idle or pause with a time it set: waited out (looked at again every second: a message, a
        // process or a file may end it sooner), then the LLM is asked and shown every result that came in meanwhile
        long held = troubled ? -1 : cycle.heldUntil();
        if (held >= 0) {
            awaitUntil(Math.min(held, time.nanoTime() + RESULT_POLL_MS * 1_000_000L));
            return true;
        }
        DrainWait wait = cycle.drainWait(giveUp);
        if (wait.end() != null) endWith(wait.end());
        if (!wait.waits()) return false;
        park(wait.nanos());
        return true;
    }

    /**
     * Asks the pacer when the next iteration runs, says so when this one overran its frame, and waits
     * for it; returns whether the next iteration is a caught-up frame.
     */
    private boolean pace(TickResult result, long began) {
        long now = time.nanoTime();
        Pace pace = pacer.next(now, result.worked());
        if (pace.late() > 0) {
            counter.skipped(pace.skipped());
            String line = overruns.line(pace, result.worked() ? "tick " + result.tickId() : "an idle frame",
                    now - began, hz, now);
            // a detail: an ordinary slow tick is no news to a person (agent run --verbose shows it)
            if (line != null) events.emit(new AgentEvent.Info(line, true));
        }
        switch (pace.waiting()) {
            case NONE -> { }
            case UNTIL_DUE -> waitUntil(pace.due(), false);
            case UNTIL_DUE_OR_WOKEN -> waitUntil(pace.due(), true);
        }
        return pace.catchUp();
    }

    private TickResult iterate(boolean catchUp) {
        try {
            if (!mayTick.getAsBoolean()) {
                cycle.recordResults();   // a process a halt killed is recorded now, not after the unlock
                return TickResult.IDLE;
            }
            // a caught-up frame answers what arrived but does not think unprompted: frames run back to back
            // make at most one LLM call per new observation
            TickResult result = cycle.tick(!catchUp);
            lastProblem = "";
            if (result.fatal()) endWith(End.DATABASE);
            return result;
        } catch (StoreException e) {
            if (!e.damaged()) return problem(e);
            endWith(End.DATABASE);   // the lock check found the file damaged: nothing here can go on
            events.emit(new AgentEvent.Problem(e.getMessage()));
            return TickResult.IDLE;
        } catch (RuntimeException e) {
            return problem(e);
        } catch (Error e) {
            return fatal(e);
        }
    }

    /** The loop boundary: whatever escaped a tick is shown (once while it repeats) and the loop goes on. */
    private TickResult problem(RuntimeException e) {
        String problem = "tick loop: " + e.getMessage();
        if (!problem.equals(lastProblem)) events.emit(new AgentEvent.Problem(problem));
        lastProblem = problem;
        return TickResult.IDLE;
    }

    /**
     * Not recoverable (a stack overflow, out of memory): a loop that looks alive but thinks no more is
     * worse than an exit, so say it once, leave a trace in the file if it can still be written, and end.
     */
    private TickResult fatal(Error e) {
        endWith(End.FAILED);
        events.emit(new AgentEvent.Problem("the agent stopped thinking: " + e.getClass().getSimpleName()
                + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")")
                + "; it exits now. Messages it was answering stay unread for the next start"));
        cycle.recordFatal(e);
        return TickResult.IDLE;
    }

    /**
     * Draining: waits out a back-off. The stop that began the drain must not end this wait (it would spin, asking the
     * cycle again and again until the next try is due); only the loop's end or an order to stop at once does.
     */
    private void park(long nanos) {
        long due = time.nanoTime() + nanos;
        while (end == null && drain) {
            if (due - time.nanoTime() <= 0) return;
            time.parkUntil(due);
        }
    }

    /**
     * Draining while a result is still to come: parks until it arrives ({@link #wake()}), the loop must end at once,
     * or {@value #RESULT_POLL_MS} ms pass (the drain looks again).
     */
    private void awaitResult() {
        awaitUntil(time.nanoTime() + RESULT_POLL_MS * 1_000_000L);
    }

    /** Draining: parks until {@code due} ({@link TimeSource#nanoTime()}), a {@link #wake()}, or the loop's end. */
    private void awaitUntil(long due) {
        while (end == null && drain && !wakeRequested.getAndSet(false)) {
            if (due - time.nanoTime() <= 0) return;
            time.parkUntil(due);
        }
    }

    /**
     * Parks until {@code due}, or sooner when the loop must end, or ({@code wakeable}) on {@link #wake()}. A wake
     * is spent either way: a fixed-rate loop answers it at the frame it is waiting for.
     */
    private void waitUntil(long due, boolean wakeable) {
        while (!(wakeRequested.getAndSet(false) && wakeable) && !stopRequested && end == null) {
            if (due - time.nanoTime() <= 0) return;
            time.parkUntil(due);
        }
    }

    private synchronized void endWith(End why) {
        if (end == null) end = why;
    }

    /**
     * Something new arrived (a typed line): a wake-or-poll loop ticks now instead of at the next poll; a
     * fixed-rate one sees it at its next frame.
     */
    public void wake() {
        wakeRequested.set(true);
        Thread t = thread;
        if (t != null) time.unpark(t);
    }

    /**
     * Asks the loop to end. With {@code drainFirst} it ticks until idle (bounded); without, it ends
     * after the tick in flight, whose writes complete.
     */
    public synchronized void stop(boolean drainFirst) {
        drain = stopRequested ? drain && drainFirst : drainFirst;   // once told to stop at once, never drain
        stopRequested = true;
        cycle.leaving();   // a question to a person in flight is withdrawn, or the loop could never end
        wake();
    }

    /** Emits an {@link AgentEvent.NoOp} for every frame with nothing to do (a verbose headless run); call before it runs. */
    public void reportNoOps(boolean report) {
        reportNoOps = report;
    }

    /** Ends the loop (End.STOPPED) after {@code frames} iterations, idle ones included; call before it runs. */
    public void limitFrames(long frames) {
        if (frames <= 0) throw new IllegalArgumentException("frames must be > 0: " + frames);
        frameLimit = frames;
    }

    /** Ends the loop after the tick in flight, for a reason outside it (the file was taken over). */
    public void end(End why) {
        endWith(Objects.requireNonNull(why, "why"));
        wake();
    }

    /** Runs {@code listener} on the tick thread when the loop has ended (at once if it already has). */
    public void onEnd(Runnable listener) {
        ending.onEnd(listener);
    }

    /** What the loop has counted so far (kept in memory only); safe to call from any thread. */
    public LoopStats stats() {
        return counter.stats(hz, cycle.clock().instant(), time.nanoTime());
    }

    /** Why the loop ended, or null while it runs. */
    public End ended() {
        return ending.ended() ? end : null;
    }

    /** Waits for the loop to end; returns why it ended. */
    public End awaitStopped() throws InterruptedException {
        ending.await();
        return end;
    }
}
