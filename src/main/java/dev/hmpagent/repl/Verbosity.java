package dev.hmpagent.repl;

import java.util.Locale;
import java.util.Optional;

/** How much of the agent's machinery the transcript shows. */
public enum Verbosity {
    /** The agent's messages, one line per tick that did something else, the line after each call, problems. */
    QUIET,
    /** Also thoughts, each command's result and the reflex's notices, clipped. */
    NORMAL,
    /** All of it, unclipped. */
    FULL;

    public static Optional<Verbosity> parse(String word) {
        for (Verbosity v : values()) {
            if (v.name().equalsIgnoreCase(word.strip())) return Optional.of(v);
        }
        return Optional.empty();
    }

    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }
}
