package dev.hmpagent.cycle;

import java.time.Duration;
import java.util.Objects;

/**
 * The REPL's pacing: tick again at once while ticks do work; otherwise wait until {@link TickLoop#wake()}
 * (a typed line) or the poll interval (to notice notes written by other processes).
 */
public final class WakeOrPollPacer implements Pacer {
    private final long pollNanos;

    public WakeOrPollPacer(Duration pollInterval) {
        Objects.requireNonNull(pollInterval, "pollInterval");
        if (pollInterval.isNegative() || pollInterval.isZero()) {
            throw new IllegalArgumentException("pollInterval must be positive: " + pollInterval);
        }
        this.pollNanos = pollInterval.toNanos();
    }

    @Override
    public double hz() {
        return 0;
    }

    @Override
    public void start(long now) { }

    @Override
    public Pace next(long now, boolean worked) {
        if (worked) return Pace.atOnce();
        return new Pace(Pace.Wait.UNTIL_DUE_OR_WOKEN, now + pollNanos, false, 0, 0);
    }
}
