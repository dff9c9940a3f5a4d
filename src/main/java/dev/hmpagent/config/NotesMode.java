package dev.hmpagent.config;

import java.util.Locale;

/** How notes get into the context: chosen by the agent itself, or only the ones the user pins. */
public enum NotesMode {
    AUTO,
    MANUAL;

    /** The spelling used in files, env vars and flags ("auto", "manual"). */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a config spelling, case-insensitively. */
    public static NotesMode fromConfigName(String text) {
        return valueOf(text.trim().toUpperCase(Locale.ROOT));
    }
}
