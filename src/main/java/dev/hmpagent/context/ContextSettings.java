package dev.hmpagent.context;

import java.util.Objects;

/**
 * How contexts are assembled.
 *
 * @param agentName          how context 0 names the agent
 * @param historyK           LLM replies shown in context 1
 * @param promptBudgetTokens contexts 1-6 are trimmed to fit this (context 0 never is)
 * @param manualNotes        context 4 shows counts and ids only (the LLM reads with note_read)
 * @param notesLimit         most notes shown in context 4
 * @param autonomous         think every tick even with nothing new
 */
public record ContextSettings(String agentName, int historyK, int promptBudgetTokens, boolean manualNotes,
                              int notesLimit, boolean autonomous) {
    public ContextSettings {
        Objects.requireNonNull(agentName, "agentName");
        if (historyK < 0) throw new IllegalArgumentException("historyK < 0");
        if (promptBudgetTokens <= 0) throw new IllegalArgumentException("promptBudgetTokens <= 0");
        if (notesLimit <= 0) throw new IllegalArgumentException("notesLimit <= 0");
    }
}
