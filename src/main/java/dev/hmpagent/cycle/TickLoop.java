package dev.hmpagent.cycle;

import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Drives {@link Cycle#tick()} on its own thread: tick while there is work, otherwise park until
 * {@link #wake()} or the poll interval (to notice notes written by other processes). The same
 * loop serves the REPL and headless runs. {@link #stop(boolean)} either finishes the tick in
 * flight and exits, or first drains: ticks until nothing is left to think about.
 */
public final class TickLoop {
    /** Most ticks a drain runs before giving up (a model that issues commands every tick never idles). */
    static final int MAX_DRAIN_TICKS = 20;

    private final Cycle cycle;
    private final long pollNanos;
    private final BooleanSupplier mayTick;
    private final EventSink events;
    private final AtomicBoolean wakeRequested = new AtomicBoolean();
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean stopRequested;
    private volatile boolean drain;
    private volatile Thread thread;
    private String lastProblem = "";

    /**
     * @param mayTick asked before every iteration on the tick thread; false skips the tick (e.g. the
     *                file was taken over by another agent, whose guard has then asked the loop to stop)
     */
    public TickLoop(Cycle cycle, Duration pollInterval, BooleanSupplier mayTick, EventSink events) {
        this.cycle = Objects.requireNonNull(cycle, "cycle");
        this.pollNanos = Objects.requireNonNull(pollInterval, "pollInterval").toNanos();
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

    /** Runs the loop on the calling thread until stopped. */
    public void run() {
        thread = Thread.currentThread();
        int drained = 0;
        try {
            while (!(stopRequested && !drain)) {
                TickResult result = iterate();
                if (stopRequested && drain && (!result.worked() || ++drained >= MAX_DRAIN_TICKS)) break;
                if (!result.worked()) park();
            }
        } catch (Error e) {
            // not caught for recovery: only so the person at the prompt learns the agent stopped thinking
            events.emit(new AgentEvent.Problem("the tick loop stopped: " + e + "; restart the agent"));
            throw e;
        } finally {
            finished.countDown();
        }
    }

    private TickResult iterate() {
        try {
            if (!mayTick.getAsBoolean()) return TickResult.IDLE;
            TickResult result = cycle.tick();
            lastProblem = "";
            return result;
        } catch (RuntimeException e) {
            // the loop boundary: whatever escaped a tick is shown (once while it repeats) and the loop goes on
            String problem = "tick loop: " + e.getMessage();
            if (!problem.equals(lastProblem)) events.emit(new AgentEvent.Problem(problem));
            lastProblem = problem;
            return TickResult.IDLE;
        }
    }

    private void park() {
        long deadline = System.nanoTime() + pollNanos;
        while (!wakeRequested.getAndSet(false) && !stopRequested) {
            long left = deadline - System.nanoTime();
            if (left <= 0) return;
            LockSupport.parkNanos(this, left);
        }
    }

    /** Something new arrived (a typed line): tick now instead of at the next poll. */
    public void wake() {
        wakeRequested.set(true);
        Thread t = thread;
        if (t != null) LockSupport.unpark(t);
    }

    /**
     * Asks the loop to end. With {@code drainFirst} it ticks until idle (bounded); without, it ends
     * after the tick in flight, whose writes complete.
     */
    public synchronized void stop(boolean drainFirst) {
        drain = stopRequested ? drain && drainFirst : drainFirst;   // once told to stop at once, never drain
        stopRequested = true;
        wake();
    }

    /** Waits for the loop to end. */
    public void awaitStopped() throws InterruptedException {
        finished.await();
    }
}
