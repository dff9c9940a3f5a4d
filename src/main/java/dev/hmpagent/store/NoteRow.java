package dev.hmpagent.store;

/** A row of {@code notes}. */
public record NoteRow(long id, String text, String tags, String source, boolean read, int priority, String timestamp) { }
