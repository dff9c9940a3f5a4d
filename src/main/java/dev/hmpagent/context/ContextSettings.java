package dev.hmpagent.context;

import dev.hmpagent.store.NoteFilter;
import java.util.Objects;

/**
 * How contexts are assembled.
 *
 * @param agentName          how context 0 names the agent
 * @param historyK           LLM replies shown in context 1
 * @param promptBudgetTokens contexts 1-6 are trimmed to fit this (context 0 never is)
 * @param manualNotes        context 4 shows counts and ids only (the LLM reads with note_read)
 * @param notesLimit         most notes shown in context 4
 * @param autoFilter         which unread notes auto mode shows (and which wake the LLM)
 * @param autonomous         think every tick even with nothing new
 */
public record ContextSettings(String agentName, int historyK, int promptBudgetTokens, boolean manualNotes,
                              int notesLimit, NoteFilter autoFilter, boolean autonomous) {
    public ContextSettings {
        Objects.requireNonNull(agentName, "agentName");
        Objects.requireNonNull(autoFilter, "autoFilter");
        if (historyK < 0) throw new IllegalArgumentException("historyK < 0");
        if (promptBudgetTokens <= 0) throw new IllegalArgumentException("promptBudgetTokens <= 0");
        if (notesLimit <= 0) throw new IllegalArgumentException("notesLimit <= 0");
    }

    /** The notes that count as something new: in manual mode every unread note, in auto mode the filtered ones. */
    public NoteFilter noteFilter() {
        return manualNotes ? NoteFilter.ALL : autoFilter;
    }
}
