package dev.hmpagent.config;

import java.util.Locale;

/**
 * How an LLM entry is asked for commands: {@code block} (the HMP contract: a {@code # Commands:} block at the end of
 * the reply) or {@code tools} (the provider's native tool calling, with JSON Schemas from the command registry).
 */
public enum CommandsMode {
    BLOCK,
    TOOLS;

    /** The spelling used in files, env vars and flags ("block", "tools"). */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a config spelling, case-insensitively. */
    public static CommandsMode fromConfigName(String text) {
        return valueOf(text.trim().toUpperCase(Locale.ROOT));
    }
}
