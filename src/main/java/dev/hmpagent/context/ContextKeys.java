package dev.hmpagent.context;

/**
 * Keys in the {@code config} table that commands set and the context assembler reads. Keys the LLM sets with
 * {@code settings_set} / {@code notes_mode} are named like their agent.toml keys and carry the tick they were
 * set at ({@code SettingsDao.putAtTick}).
 */
public final class ContextKeys {
    /** Text or tag that selects diary entries for context 3. */
    public static final String DIARY_QUERY = "context3.diary_query";
    /** How many diary entries context 3 shows. */
    public static final String DIARY_LIMIT = "context3.diary_limit";
    /** LLM replies shown in context 1 (a whole number within {@link SettingsBounds}). */
    public static final String HISTORY_K = "cycle.history_k";
    /** "manual" or "auto": how unread notes enter context 4. */
    public static final String NOTES_MODE = "context.notes_mode";
    /** The auto mode's filter as JSON ({@code NoteFilter.toJson}); absent: agent.toml's filter. */
    public static final String NOTES_FILTER = "context.notes_filter";

    private ContextKeys() { }
}
