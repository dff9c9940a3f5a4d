package dev.hmpagent.store;

/** A row of {@code diary_entries}. */
public record DiaryRow(long id, String text, String tags, int priority, String timestamp) { }
