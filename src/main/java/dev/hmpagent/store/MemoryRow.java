package dev.hmpagent.store;

/** A row of {@code llm_memory}. */
public record MemoryRow(long id, String title, String content, String tags, String updatedAt) { }
