package dev.hmpagent.commands.catalogue;

import dev.hmpagent.context.SettingsBounds;
import java.util.Objects;

/**
 * What the built-in command families take from agent.toml.
 *
 * @param cleanupMinAgeTicks {@code cleanup} never deletes a row newer than this many ticks
 *                           ({@code cleanup.min_age_ticks})
 * @param settingsBounds     what {@code settings_set} may set
 */
public record CommandOptions(long cleanupMinAgeTicks, SettingsBounds settingsBounds) {
    public static final CommandOptions DEFAULTS = new CommandOptions(CleanupCommands.DEFAULT_MIN_AGE_TICKS,
            SettingsBounds.DEFAULTS);

    public CommandOptions {
        if (cleanupMinAgeTicks < 1) throw new IllegalArgumentException("cleanupMinAgeTicks < 1: " + cleanupMinAgeTicks);
        Objects.requireNonNull(settingsBounds, "settingsBounds");
    }
}
