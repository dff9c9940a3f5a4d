package dev.hmpagent.config;

import java.util.Objects;

/**
 * The [context] section: how the prompt is assembled. {@code notesMinPriority} and
 * {@code notesTags} (comma-separated, empty for any) filter the notes of auto mode; {@code promptForm} says how
 * context 0 lists the commands.
 */
public record ContextSection(int promptBudgetTokens, NotesMode notesMode, int notesLimit, int notesMinPriority,
                             String notesTags, PromptForm promptForm) {
    public ContextSection {
        Objects.requireNonNull(notesMode, "notesMode");
        Objects.requireNonNull(notesTags, "notesTags");
        Objects.requireNonNull(promptForm, "promptForm");
    }

    /** Every key but the prompt's form as given, the form {@code auto}: for code written before it existed. */
    public ContextSection(int promptBudgetTokens, NotesMode notesMode, int notesLimit, int notesMinPriority,
                          String notesTags) {
        this(promptBudgetTokens, notesMode, notesLimit, notesMinPriority, notesTags, PromptForm.AUTO);
    }
}
