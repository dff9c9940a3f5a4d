package dev.hmpagent.cycle;

/**
 * What one call of {@link Cycle#tick()} did. {@code worked} is false for the cheap no-op poll
 * (nothing to think about, or waiting out a back-off): no tick id is used and nothing is written.
 * {@code fatal} is true when the tick found that thinking cannot go on (the database is damaged).
 */
public record TickResult(boolean worked, long tickId, String outcome, boolean fatal) {
    public static final TickResult IDLE = new TickResult(false, 0, "idle", false);

    public TickResult(boolean worked, long tickId, String outcome) {
        this(worked, tickId, outcome, false);
    }

    /** A tick that found thinking cannot go on. */
    public static TickResult fatal(long tickId, String outcome) {
        return new TickResult(true, tickId, outcome, true);
    }
}
