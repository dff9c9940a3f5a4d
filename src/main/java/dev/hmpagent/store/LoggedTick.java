package dev.hmpagent.store;

import java.util.Objects;

/**
 * A tick as {@code agent log} shows it: its {@code agent_log} row, the text of its reply ("" when it has
 * none: no LLM call, or a call that failed before any text came), whether its prompt is stored, and how many of its
 * prompt tokens (the main call's and its llm_tasks', as {@code prompt_tokens} counts them) the servers read from their
 * prompt cache ({@code llm_calls}; 0 for a tick of an hmp-agent that did not record calls).
 */
public record LoggedTick(TickRecord tick, String reply, boolean promptStored, long cachedTokens) {
    public LoggedTick {
        Objects.requireNonNull(tick, "tick");
        Objects.requireNonNull(reply, "reply");
    }
}
