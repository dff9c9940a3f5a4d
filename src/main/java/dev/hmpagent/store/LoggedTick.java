package dev.hmpagent.store;

import java.util.Objects;

/**
 * A tick as {@code agent log} shows it: its {@code agent_log} row, the text of its reply ("" when it has
 * none: no LLM call, or a call that failed before any text came), and whether its prompt is stored.
 */
public record LoggedTick(TickRecord tick, String reply, boolean promptStored) {
    public LoggedTick {
        Objects.requireNonNull(tick, "tick");
        Objects.requireNonNull(reply, "reply");
    }
}
