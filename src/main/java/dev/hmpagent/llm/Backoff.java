package dev.hmpagent.llm;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Deterministic retry delays: {@code initial * 2^(n-1)} capped at {@code max}, or the server's
 * Retry-After (at least {@code initial}, at most one hour) when it sent one, since the server said exactly when.
 */
public record Backoff(Duration initial, Duration max) {
    /** The longest Retry-After honoured; a server asking for more gets this. */
    public static final Duration MAX_RETRY_AFTER = Duration.ofHours(1);

    public Backoff {
        Objects.requireNonNull(initial, "initial");
        Objects.requireNonNull(max, "max");
        if (initial.isNegative() || initial.isZero()) throw new IllegalArgumentException("initial must be > 0");
        if (max.compareTo(initial) < 0) throw new IllegalArgumentException("max must be >= initial");
    }

    /**
     * The delay before the next try.
     *
     * @param consecutiveFailures how many tries in a row failed, at least 1
     * @param retryAfter the server's Retry-After, if any
     */
    public Duration delay(int consecutiveFailures, Optional<Duration> retryAfter) {
        if (consecutiveFailures < 1) throw new IllegalArgumentException("consecutiveFailures must be >= 1");
        Objects.requireNonNull(retryAfter, "retryAfter");
        if (retryAfter.isPresent()) {
            Duration asked = retryAfter.get();
            // never below the first step: a server answering "retry now" (0, a past date) must not be hammered
            if (asked.compareTo(initial) < 0) return initial;
            return asked.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : asked;
        }
        Duration delay = initial;
        for (int i = 1; i < consecutiveFailures; i++) {
            delay = delay.multipliedBy(2);
            if (delay.compareTo(max) >= 0) return max;
        }
        return delay.compareTo(max) > 0 ? max : delay;
    }
}
