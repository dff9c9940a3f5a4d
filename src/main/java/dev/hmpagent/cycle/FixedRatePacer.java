package dev.hmpagent.cycle;

import java.time.Duration;
import java.util.Objects;

/**
 * {@code agent run}'s pacing: frame n is due at start + n·period, computed from n (never a sleep of one
 * period after the work, which drifts by the work time every tick), whatever the iterations did;
 * {@link TickLoop#wake()} does not bring a frame forward. A tick that overruns its period leaves frames
 * behind: {@link Overrun#SKIP} drops them and waits for the next one due; {@link Overrun#CATCH_UP} runs
 * them back to back, at most {@code maxCatchUp} (dropping the oldest beyond that), as catch-up frames
 * that do not think unprompted.
 */
public final class FixedRatePacer implements Pacer {
    public static final double MIN_HZ = 0.1;
    public static final double MAX_HZ = 50;

    /** What to do with the frames a slow tick left behind. */
    public enum Overrun { SKIP, CATCH_UP }

    private final double hz;
    private final long period;
    private final Overrun overrun;
    private final int maxCatchUp;
    private long start;
    /** The first frame neither run nor skipped yet. */
    private long next;
    /** Catch-up frames still to run back to back after the next one. */
    private long owed;

    /**
     * @param hz          frames per second, {@value #MIN_HZ} to {@value #MAX_HZ}
     * @param maxCatchUp  with {@link Overrun#CATCH_UP}, most missed frames run back to back after one overrun
     */
    public FixedRatePacer(double hz, Overrun overrun, int maxCatchUp) {
        if (!(hz >= MIN_HZ && hz <= MAX_HZ)) {
            throw new IllegalArgumentException("hz must be from " + MIN_HZ + " to " + MAX_HZ + ": " + hz);
        }
        if (maxCatchUp < 0) throw new IllegalArgumentException("maxCatchUp must not be negative: " + maxCatchUp);
        this.hz = hz;
        this.period = Math.round(1e9 / hz);
        this.overrun = Objects.requireNonNull(overrun, "overrun");
        this.maxCatchUp = maxCatchUp;
    }

    @Override
    public double hz() {
        return hz;
    }

    /** The time between two frames, rounded to the nanosecond. */
    public Duration period() {
        return Duration.ofNanos(period);
    }

    @Override
    public void start(long now) {
        start = now;
        next = 1;   // frame 0 runs now
        owed = 0;
    }

    @Override
    public Pace next(long now, boolean worked) {
        if (owed > 0) {
            owed--;
            return frame(next++, Pace.Wait.NONE, true, 0, 0);
        }
        long late = late(now);
        if (late == 0) return frame(next++, Pace.Wait.UNTIL_DUE, false, 0, 0);
        long catchUp = overrun == Overrun.CATCH_UP ? Math.min(late, maxCatchUp) : 0;
        long skipped = late - catchUp;
        next += skipped;   // the oldest go; what is caught up is the most recent
        if (catchUp == 0) return frame(next++, Pace.Wait.UNTIL_DUE, false, late, skipped);
        owed = catchUp - 1;
        return frame(next++, Pace.Wait.NONE, true, late, skipped);
    }

    /** Frames from {@code next} on whose time is already past at {@code now}. */
    private long late(long now) {
        long elapsed = now - start;
        if (elapsed <= 0) return 0;
        long firstNotPast = (elapsed - 1) / period + 1;   // the first frame due at or after now
        return Math.max(0, firstNotPast - next);
    }

    private Pace frame(long frame, Pace.Wait wait, boolean catchUp, long late, long skipped) {
        return new Pace(wait, start + frame * period, catchUp, late, skipped);
    }
}
