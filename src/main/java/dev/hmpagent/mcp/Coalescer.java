package dev.hmpagent.mcp;

import java.time.Duration;
import java.util.Objects;

/**
 * Runs an action at most once per {@code gap} however often it is asked for, and always once after the last ask: a
 * server that sends {@code notifications/tools/list_changed} 1,466 times in 17 s gets one {@code tools/list} a second,
 * and the last notification of a burst is still followed by one. Thread-safe; the action runs on the scheduler.
 */
final class Coalescer {
    /** Time and a later run: the monotonic clock and a single thread in the agent, a hand-moved clock in tests. */
    interface Scheduler {
        /** Now, in nanoseconds of a monotonic clock. */
        long nanos();

        /** Runs {@code task} after {@code delayNanos}. */
        void after(long delayNanos, Runnable task);
    }

    /** The agent's scheduler: the monotonic clock, and {@code executor}'s thread (none once it is shut down). */
    static Scheduler on(java.util.concurrent.ScheduledExecutorService executor) {
        return new Scheduler() {
            @Override
            public long nanos() {
                return System.nanoTime();
            }

            @Override
            public void after(long delayNanos, Runnable task) {
                try {
                    executor.schedule(task, delayNanos, java.util.concurrent.TimeUnit.NANOSECONDS);
                } catch (java.util.concurrent.RejectedExecutionException e) {
                    // the agent is closing: nothing more runs
                }
            }
        };
    }

    private final long gapNanos;
    private final Scheduler scheduler;
    private final Runnable action;
    /** Whether a run is scheduled and has not started yet (asks meanwhile join it). */
    private boolean pending;
    /** When the last run started; {@code null} before the first. */
    private Long lastRun;

    Coalescer(Duration gap, Scheduler scheduler, Runnable action) {
        this.gapNanos = gap.toNanos();
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.action = Objects.requireNonNull(action, "action");
    }

    /** Asks for a run: at once when none ran within the gap, else at the gap's end; none more if one is waiting. */
    void ask() {
        long delay;
        synchronized (this) {
            if (pending) return;
            pending = true;
            delay = lastRun == null ? 0 : Math.max(0, lastRun + gapNanos - scheduler.nanos());
        }
        scheduler.after(delay, this::run);
    }

    private void run() {
        synchronized (this) {
            pending = false;
            lastRun = scheduler.nanos();
        }
        action.run();
    }
}
