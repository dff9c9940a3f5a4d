package dev.hmpagent.config;

import java.util.Objects;

/** The [context] section: how the prompt is assembled. */
public record ContextSection(int promptBudgetTokens, NotesMode notesMode, int notesLimit) {
    public ContextSection {
        Objects.requireNonNull(notesMode, "notesMode");
    }
}
