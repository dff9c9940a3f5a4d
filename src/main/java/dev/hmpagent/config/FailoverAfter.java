package dev.hmpagent.config;

import java.time.Duration;
import java.util.Optional;

/**
 * When an unreachable LLM is given up for the next one (llm.failover_after): after {@code failures} transient failures
 * in a row, or once it has failed for {@code time}; exactly one of the two is set.
 */
public record FailoverAfter(int failures, Duration time) {
    public FailoverAfter {
        if ((failures > 0) == (time != null)) throw new IllegalArgumentException("set failures or time, not both");
        if (time != null && (time.isNegative() || time.isZero())) throw new IllegalArgumentException("time must be > 0");
    }

    public static FailoverAfter failures(int n) {
        return new FailoverAfter(n, null);
    }

    public static FailoverAfter seconds(long s) {
        return new FailoverAfter(0, Duration.ofSeconds(s));
    }

    /** The time, when it is given as one. */
    public Optional<Duration> timeLimit() {
        return Optional.ofNullable(time);
    }

    /** Whether an LLM that failed {@code inARow} times, the first {@code failingFor} ago, is to be given up. */
    public boolean reached(int inARow, Duration failingFor) {
        return time == null ? inARow >= failures : failingFor.compareTo(time) >= 0;
    }

    /** "3" or "90s", as written in agent.toml. */
    @Override
    public String toString() {
        return time == null ? Integer.toString(failures) : time.toSeconds() + "s";
    }
}
