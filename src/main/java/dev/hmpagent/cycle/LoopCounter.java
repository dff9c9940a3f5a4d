package dev.hmpagent.cycle;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The {@link TickLoop}'s counters: written on the tick thread only, published whole after each change,
 * so a status display on any thread reads one consistent set. Times are {@link TimeSource} readings.
 */
final class LoopCounter {
    /** {@code lastTook} is -1 until an iteration has done work. */
    private record Counts(long noOps, long skipped, long caughtUp, long lastBegan, long lastTook) { }

    private volatile Counts counts = new Counts(0, 0, 0, 0, -1);

    /** An iteration ran from {@code began} to {@code ended}; {@code caughtUp} when it ran a missed frame late. */
    void iteration(boolean worked, boolean caughtUp, long began, long ended) {
        Counts c = counts;
        long caught = c.caughtUp + (caughtUp ? 1 : 0);
        counts = worked
                ? new Counts(c.noOps, c.skipped, caught, began, ended - began)
                : new Counts(c.noOps + 1, c.skipped, caught, c.lastBegan, c.lastTook);
    }

    void skipped(long frames) {
        Counts c = counts;
        counts = new Counts(c.noOps, c.skipped + frames, c.caughtUp, c.lastBegan, c.lastTook);
    }

    /** The counters as of {@code nowNanos}, which is the instant {@code now}. */
    LoopStats stats(double hz, Instant now, long nowNanos) {
        Counts c = counts;
        Optional<Instant> lastAt = c.lastTook < 0 ? Optional.empty()
                : Optional.of(now.minusNanos(nowNanos - c.lastBegan));
        return new LoopStats(hz, c.noOps, c.skipped, c.caughtUp, lastAt, Duration.ofNanos(Math.max(0, c.lastTook)));
    }
}
