package dev.hmpagent.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The [cycle] section: how the think loop behaves.
 *
 * @param autonomous   think on every tick even when nothing new arrived
 * @param historyK     how many recent LLM replies are shown in the context
 * @param pollInterval how often the idle loop looks at the database for work from other processes
 * @param maxIdle      the longest the LLM's own {@code idle} may last, whatever its wake conditions
 * @param maxCommandsPerReply the most commands of one reply that run; the rest become one error row
 */
public record CycleSection(boolean autonomous, int historyK, Duration pollInterval, Duration maxIdle,
                           int maxCommandsPerReply) {
    /** The default {@code cycle.max_idle_s}, for code that builds a section by hand. */
    public static final Duration DEFAULT_MAX_IDLE = Duration.ofHours(1);
    /**
     * The default {@code cycle.max_commands_per_reply}: the one definition ({@link ConfigKey} writes it as its
     * default; the agent's command queue is built with the configured value).
     */
    public static final int DEFAULT_MAX_COMMANDS_PER_REPLY = 100;

    public CycleSection {
        Objects.requireNonNull(pollInterval, "pollInterval");
        Objects.requireNonNull(maxIdle, "maxIdle");
        if (maxCommandsPerReply < 1) {
            throw new IllegalArgumentException("maxCommandsPerReply must be positive, was " + maxCommandsPerReply);
        }
    }

    /** A section with the default {@link #maxCommandsPerReply()}. */
    public CycleSection(boolean autonomous, int historyK, Duration pollInterval, Duration maxIdle) {
        this(autonomous, historyK, pollInterval, maxIdle, DEFAULT_MAX_COMMANDS_PER_REPLY);
    }

    /** A section with the default {@link #maxIdle()} (tests and code written before the key existed). */
    public CycleSection(boolean autonomous, int historyK, Duration pollInterval) {
        this(autonomous, historyK, pollInterval, DEFAULT_MAX_IDLE);
    }
}
