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
 */
public record CycleSection(boolean autonomous, int historyK, Duration pollInterval, Duration maxIdle) {
    /** The default {@code cycle.max_idle_s}, for code that builds a section by hand. */
    public static final Duration DEFAULT_MAX_IDLE = Duration.ofHours(1);

    public CycleSection {
        Objects.requireNonNull(pollInterval, "pollInterval");
        Objects.requireNonNull(maxIdle, "maxIdle");
    }

    /** A section with the default {@link #maxIdle()} (tests and code written before the key existed). */
    public CycleSection(boolean autonomous, int historyK, Duration pollInterval) {
        this(autonomous, historyK, pollInterval, DEFAULT_MAX_IDLE);
    }
}
