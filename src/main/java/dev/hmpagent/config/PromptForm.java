package dev.hmpagent.config;

import java.util.Locale;

/**
 * How context 0 lists the commands: {@code full} (every common command with its arguments), {@code compact} (the few
 * a person's usual task needs; the rest behind {@code help}), or {@code auto} (compact when the server says the
 * model's context window is small, full when it is large or not said).
 */
public enum PromptForm {
    AUTO,
    FULL,
    COMPACT;

    /** The spelling used in files, env vars and flags ("auto", "full", "compact"). */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a config spelling, case-insensitively. */
    public static PromptForm fromConfigName(String text) {
        return valueOf(text.trim().toUpperCase(Locale.ROOT));
    }
}
