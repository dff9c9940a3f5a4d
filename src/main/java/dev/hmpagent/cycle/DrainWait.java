package dev.hmpagent.cycle;

import java.time.Duration;

/**
 * Draining and idle: what the loop does about the cycle's trouble. Nothing left to wait for (no trouble), a wait of
 * {@code nanos} until the cycle's next try, or the end of the loop ({@code end}) when that try would come after the
 * give-up time or waiting cannot help (the LLM refused the request).
 */
record DrainWait(TickLoop.End end, long nanos) {
    private static final DrainWait NOTHING = new DrainWait(null, -1);

    /**
     * @param now      {@link TimeSource#nanoTime()} now
     * @param retryDue when the next try is due, on the same clock ({@code now} when none waits)
     * @param since    when the trouble began, on the same clock
     */
    static DrainWait of(CycleStatus.Trouble trouble, long now, long retryDue, long since, Duration giveUp) {
        switch (trouble) {
            case NONE -> {
                return NOTHING;
            }
            case LLM_REJECTED -> {
                return new DrainWait(TickLoop.End.LLM_REJECTED, -1);
            }
            default -> { }
        }
        if (retryDue - since > giveUp.toNanos()) {
            return new DrainWait(switch (trouble) {
                case STORE -> TickLoop.End.DATABASE;
                case ERROR -> TickLoop.End.FAILED;
                default -> TickLoop.End.LLM_GAVE_UP;
            }, -1);
        }
        return new DrainWait(null, Math.max(1, retryDue - now));
    }

    /** Whether the loop waits (then for {@link #nanos()}). */
    boolean waits() {
        return nanos > 0;
    }
}
