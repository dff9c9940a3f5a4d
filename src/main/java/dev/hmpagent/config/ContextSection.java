package dev.hmpagent.config;

import java.util.Objects;

/**
 * The [context] section: how the prompt is assembled. {@code notesMinPriority} and
 * {@code notesTags} (comma-separated, empty for any) filter the notes of auto mode.
 */
public record ContextSection(int promptBudgetTokens, NotesMode notesMode, int notesLimit, int notesMinPriority,
                             String notesTags) {
    public ContextSection {
        Objects.requireNonNull(notesMode, "notesMode");
        Objects.requireNonNull(notesTags, "notesTags");
    }
}
