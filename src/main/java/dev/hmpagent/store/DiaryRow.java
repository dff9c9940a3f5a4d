package dev.hmpagent.store;

/** A row of {@code diary_entries}; {@code pinned} while it is shown in context 3 every tick (diary_pin). */
public record DiaryRow(long id, String text, String tags, int priority, String timestamp, boolean pinned) { }
