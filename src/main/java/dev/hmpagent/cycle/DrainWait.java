package dev.hmpagent.cycle;

import java.time.Duration;
import java.time.Instant;

/**
 * Draining and idle: what the loop does about the cycle's trouble. Nothing left to wait for (no trouble), a wait of
 * {@code nanos} until the cycle's next try, or the end of the loop ({@code end}) when that try would come after the
 * give-up time or waiting cannot help (the LLM refused the request).
 */
record DrainWait(TickLoop.End end, long nanos) {
    private static final DrainWait NOTHING = new DrainWait(null, -1);

    static DrainWait of(CycleStatus s, Instant now, Duration giveUp) {
        switch (s.trouble()) {
            case NONE -> {
                return NOTHING;
            }
            case LLM_REJECTED -> {
                return new DrainWait(TickLoop.End.LLM_REJECTED, -1);
            }
            default -> { }
        }
        Instant retryAt = s.retryAt().orElse(now);
        Instant since = s.troubleSince().orElse(now);
        if (retryAt.isAfter(since.plus(giveUp))) {
            return new DrainWait(switch (s.trouble()) {
                case STORE -> TickLoop.End.DATABASE;
                case ERROR -> TickLoop.End.FAILED;
                default -> TickLoop.End.LLM_GAVE_UP;
            }, -1);
        }
        return new DrainWait(null, Math.max(1, Duration.between(now, retryAt).toNanos()));
    }

    /** Whether the loop waits (then for {@link #nanos()}). */
    boolean waits() {
        return nanos > 0;
    }
}
