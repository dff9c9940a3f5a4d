package dev.hmpagent.store;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** {@code notes}: messages to the agent (and the LLM's messages to the user, source 'llm'). */
public final class NotesDao {
    private static final String COLUMNS = "id, text, tags, source, read, priority, timestamp";
    private final Store store;

    public NotesDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    public long add(String text, String source, int priority, String tags) {
        return store.insert("INSERT INTO notes(text, tags, source, priority, timestamp, read) VALUES (?, ?, ?, ?, ?, 0)",
                text, tags, source, priority, store.now());
    }

    /** A message the LLM wrote for the user; born read so it never comes back as input. */
    public long addFromLlm(String text, String llmId, long tickId) {
        return store.insert("INSERT INTO notes(text, source, priority, timestamp, read, llm_id, tick_id) "
                + "VALUES (?, 'llm', 0, ?, 1, ?, ?)", text, store.now(), llmId, tickId);
    }

    /** Unread incoming notes the filter lets through, oldest first. */
    public List<NoteRow> unread(NoteFilter filter, int limit) {
        List<Object> params = new ArrayList<>();
        String where = filter.sql(params);
        params.add(limit);
        return store.query("SELECT " + COLUMNS + " FROM notes WHERE read = 0 AND source <> 'llm' AND " + where
                + " ORDER BY id LIMIT ?", NotesDao::map, params.toArray());
    }

    public long unreadCount() {
        return store.queryLong("SELECT count(*) FROM notes WHERE read = 0 AND source <> 'llm'");
    }

    /** Unread counts keyed by priority, highest first. */
    public Map<Integer, Long> unreadCountsByPriority() {
        Map<Integer, Long> counts = new LinkedHashMap<>();
        store.query("SELECT priority, count(*) FROM notes WHERE read = 0 AND source <> 'llm' "
                + "GROUP BY priority ORDER BY priority DESC", rs -> counts.put(rs.getInt(1), rs.getLong(2)));
        return counts;
    }

    /** The highest id among unread incoming notes the filter lets through (0 when none). */
    public long maxUnreadId(NoteFilter filter) {
        List<Object> params = new ArrayList<>();
        String where = filter.sql(params);
        return store.queryLong("SELECT coalesce(max(id), 0) FROM notes WHERE read = 0 AND source <> 'llm' AND " + where,
                params.toArray());
    }

    public Optional<NoteRow> get(long id) {
        return store.queryOne("SELECT " + COLUMNS + " FROM notes WHERE id = ?", NotesDao::map, id);
    }

    public void markRead(Collection<Long> ids, long tickId) {
        for (long id : ids) store.update("UPDATE notes SET read = 1, tick_id = ? WHERE id = ?", tickId, id);
    }

    /** Notes after {@code afterId}, any source, oldest first. */
    public List<NoteRow> after(long afterId, int limit) {
        return store.query("SELECT " + COLUMNS + " FROM notes WHERE id > ? ORDER BY id LIMIT ?", NotesDao::map, afterId, limit);
    }

    private static NoteRow map(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new NoteRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getInt(5) != 0,
                rs.getInt(6), rs.getString(7));
    }
}
