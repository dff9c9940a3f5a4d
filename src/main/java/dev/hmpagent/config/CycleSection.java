package dev.hmpagent.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The [cycle] section: how the think loop behaves.
 *
 * @param autonomous   think on every tick even when nothing new arrived
 * @param historyK     how many recent LLM replies are shown in the context
 * @param pollInterval how often the idle loop looks at the database for work from other processes
 */
public record CycleSection(boolean autonomous, int historyK, Duration pollInterval) {
    public CycleSection {
        Objects.requireNonNull(pollInterval, "pollInterval");
    }
}
