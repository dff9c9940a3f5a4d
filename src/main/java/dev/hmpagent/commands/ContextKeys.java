package dev.hmpagent.commands;

/** Keys in the {@code config} table that commands set and the context assembler reads. */
public final class ContextKeys {
    /** Text or tag that selects diary entries for context 3. */
    public static final String DIARY_QUERY = "context3.diary_query";
    /** How many diary entries context 3 shows. */
    public static final String DIARY_LIMIT = "context3.diary_limit";

    private ContextKeys() { }
}
