package dev.hmpagent.config;

import java.util.Locale;

/**
 * How an LLM entry is asked for commands: {@code block} (the HMP contract: a {@code # Commands:} block at the end of
 * the reply), {@code tools} (the provider's native tool calling, with JSON Schemas from the command registry) or
 * {@code json} (the whole reply one JSON object, {@code {"thought", "commands"}}, which the server is asked to keep to
 * the schema of the registry's commands: a weak model cannot get its form wrong).
 */
public enum CommandsMode {
    BLOCK,
    TOOLS,
    JSON;

    /** The spelling used in files, env vars and flags ("block", "tools", "json"). */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a config spelling, case-insensitively. */
    public static CommandsMode fromConfigName(String text) {
        return valueOf(text.trim().toUpperCase(Locale.ROOT));
    }
}
