package dev.hmpagent.llm;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Retry delays: {@code initial * 2^(n-1)} capped at {@code max}, less up to half of it by the injected random
 * source (equal jitter; none with the two-argument constructor), or the server's
 * Retry-After (at least {@code initial}, at most one hour) when it sent one, since the server said exactly when.
 */
public record Backoff(Duration initial, Duration max, java.util.function.DoubleSupplier random) {
    /** The longest Retry-After honoured; a server asking for more gets this. */
    public static final Duration MAX_RETRY_AFTER = Duration.ofHours(1);

    public Backoff {
        Objects.requireNonNull(initial, "initial");
        Objects.requireNonNull(max, "max");
        if (initial.isNegative() || initial.isZero()) throw new IllegalArgumentException("initial must be > 0");
        if (max.compareTo(initial) < 0) throw new IllegalArgumentException("max must be >= initial");
        Objects.requireNonNull(random, "random");
    }

    /** Without jitter: the exact exponential delays (tests, and where one retrier only ever waits). */
    public Backoff(Duration initial, Duration max) {
        this(initial, max, () -> 0.0);
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
        for (int i = 1; i < consecutiveFailures && delay.compareTo(max) < 0; i++) delay = delay.multipliedBy(2);
        if (delay.compareTo(max) > 0) delay = max;
        // equal jitter from the injected source: between half and all of the step, never below the first step,
        // so agents that lost one server together do not all come back at the same instant
        double r = Math.min(1.0, Math.max(0.0, random.getAsDouble()));
        Duration jittered = Duration.ofNanos((long) (delay.toNanos() * (1.0 - r / 2)));
        return jittered.compareTo(initial) < 0 ? initial : jittered;
    }
}
