package dev.hmpagent.store;

/** One version of an {@code agent_scripts} row. */
public record ScriptRow(long id, String name, String version, String language, String description, String tags,
                        String code, String updatedAt) { }
