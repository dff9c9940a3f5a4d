package dev.hmpagent.store;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code notes}: messages to the agent (and the LLM's messages to the user, source 'llm'). Every insert
 * parses the text's hashtags and mentions into their columns ({@link NoteTags}).
 */
public final class NotesDao {
    private static final String COLUMNS = "id, text, tags, source, read, priority, timestamp, hashtags, mentions, "
            + "coalesce(reply_to, 0)";
    /** Unread notes that may come back as input. */
    private static final String UNREAD = "read = 0 AND source <> 'llm'";
    private final Store store;

    public NotesDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    public long add(String text, String source, int priority, String tags) {
        return store.insert("INSERT INTO notes(text, tags, source, priority, timestamp, read, hashtags, mentions) "
                        + "VALUES (?, ?, ?, ?, ?, 0, ?, ?)", text, tags, source, priority, store.now(),
                NoteTags.toJson(NoteTags.hashtags(text)), NoteTags.toJson(NoteTags.mentions(text)));
    }

    /** A message the LLM wrote for the user; born read so it never comes back as input. */
    public long addFromLlm(String text, String llmId, long tickId) {
        return addReplyFromLlm(text, llmId, tickId, 0);
    }

    /** As {@link #addFromLlm}, answering note {@code replyTo} (0: none). */
    public long addReplyFromLlm(String text, String llmId, long tickId, long replyTo) {
        return store.insert("INSERT INTO notes(text, source, priority, timestamp, read, llm_id, tick_id, hashtags, "
                        + "mentions, reply_to) VALUES (?, 'llm', 0, ?, 1, ?, ?, ?, ?, ?)", text, store.now(), llmId, tickId,
                NoteTags.toJson(NoteTags.hashtags(text)), NoteTags.toJson(NoteTags.mentions(text)),
                replyTo == 0 ? null : replyTo);
    }

    /**
     * The latest {@code limit} notes of the conversation with the person (what they typed, source {@code user}, and
     * what the agent sent them, source {@code llm}), oldest first: what the REPL shows on start.
     */
    public List<NoteRow> latestConversation(int limit) {
        List<NoteRow> newest = store.query("SELECT " + COLUMNS + " FROM notes WHERE source IN ('user', 'llm')"
                + " ORDER BY id DESC LIMIT ?", NotesDao::map, limit);
        List<NoteRow> oldestFirst = new ArrayList<>(newest);
        java.util.Collections.reverse(oldestFirst);
        return oldestFirst;
    }

    /** Marks every unread note from {@code source} read (the person dropped them); returns how many. */
    public int dropUnread(String source, long tickId) {
        return store.update("UPDATE notes SET read = 1, tick_id = ? WHERE read = 0 AND source = ?", tickId, source);
    }

    /** Unread incoming notes the filter lets through, oldest first. */
    public List<NoteRow> unread(NoteFilter filter, int limit) {
        List<Object> params = new ArrayList<>();
        String where = filter.sql(params);
        params.add(limit);
        return store.query("SELECT " + COLUMNS + " FROM notes WHERE " + UNREAD + " AND " + where
                + " ORDER BY id LIMIT ?", NotesDao::map, params.toArray());
    }

    /**
     * What context 4 shows: unread notes the filter lets through, at most {@code perSource} from any one source
     * (the oldest of each), a person's own (source user) first, then the others, each oldest first.
     */
    public List<NoteRow> unreadCapped(NoteFilter filter, int perSource, int limit) {
        List<Object> params = new ArrayList<>();
        String where = filter.sql(params);
        params.add(perSource);
        params.add(limit);
        return store.queryKept("SELECT " + COLUMNS + " FROM (SELECT *, row_number() OVER (PARTITION BY source ORDER BY id) "
                + "AS nth FROM notes WHERE " + UNREAD + " AND " + where + ") WHERE nth <= ? "
                + "ORDER BY source = 'user' DESC, id LIMIT ?", NotesDao::map, params.toArray());
    }

    /** The lowest id among unread notes the filter lets through that are not in {@code except} (0 when none). */
    public long minUnreadIdExcept(NoteFilter filter, Collection<Long> except) {
        List<Object> params = new ArrayList<>();
        String where = filter.sql(params);
        StringBuilder notIn = new StringBuilder();
        for (long id : except) {
            notIn.append(notIn.length() == 0 ? " AND id NOT IN (?" : ", ?");
            params.add(id);
        }
        if (notIn.length() > 0) notIn.append(')');
        return store.queryLongKept("SELECT coalesce(min(id), 0) FROM notes WHERE " + UNREAD + " AND " + where + notIn,
                params.toArray());
    }

    /** Unread incoming notes the filter lets through. */
    public long unreadCount(NoteFilter filter) {
        List<Object> params = new ArrayList<>();
        String where = filter.sql(params);
        return store.queryLongKept("SELECT count(*) FROM notes WHERE " + UNREAD + " AND " + where, params.toArray());
    }

    public long unreadCount() {
        return store.queryLongKept("SELECT count(*) FROM notes WHERE " + UNREAD);
    }

    /** Unread counts keyed by priority, highest first. */
    public Map<Integer, Long> unreadCountsByPriority() {
        Map<Integer, Long> counts = new LinkedHashMap<>();
        store.query("SELECT priority, count(*) FROM notes WHERE " + UNREAD
                + " GROUP BY priority ORDER BY priority DESC", rs -> counts.put(rs.getInt(1), rs.getLong(2)));
        return counts;
    }

    /** Unread counts keyed by source, most first. */
    public Map<String, Long> unreadCountsBySource() {
        Map<String, Long> counts = new LinkedHashMap<>();
        store.query("SELECT coalesce(source, 'user'), count(*) FROM notes WHERE " + UNREAD
                + " GROUP BY 1 ORDER BY 2 DESC, 1", rs -> counts.put(rs.getString(1), rs.getLong(2)));
        return counts;
    }

    /** Unread counts keyed by hashtag, most first, at most {@code limit} hashtags. */
    public Map<String, Long> unreadCountsByHashtag(int limit) {
        Map<String, Long> counts = new LinkedHashMap<>();
        store.query("SELECT h.value, count(*) FROM notes n, json_each(CASE WHEN json_valid(n.hashtags) "
                        + "THEN n.hashtags ELSE '[]' END) h WHERE n.read = 0 AND n.source <> 'llm' "
                        + "GROUP BY h.value ORDER BY 2 DESC, 1 LIMIT ?",
                rs -> counts.put(rs.getString(1), rs.getLong(2)), limit);
        return counts;
    }

    /** The highest id among unread incoming notes the filter lets through (0 when none). */
    public long maxUnreadId(NoteFilter filter) {
        List<Object> params = new ArrayList<>();
        String where = filter.sql(params);
        return store.queryLongKept("SELECT coalesce(max(id), 0) FROM notes WHERE " + UNREAD + " AND " + where,
                params.toArray());
    }

    public Optional<NoteRow> get(long id) {
        return store.queryOne("SELECT " + COLUMNS + " FROM notes WHERE id = ?", NotesDao::map, id);
    }

    /**
     * Incoming notes (not the LLM's own), newest first: only unread ones when {@code unreadOnly}, of one
     * source and carrying one tag (in {@code tags} or as a hashtag) when those are given (empty: any).
     */
    public List<NoteRow> list(boolean unreadOnly, String source, String tag, int limit) {
        List<Object> params = new ArrayList<>();
        StringBuilder where = new StringBuilder("source <> 'llm'");
        if (unreadOnly) where.append(" AND read = 0");
        if (!source.isEmpty()) {
            where.append(" AND source = ?");
            params.add(source);
        }
        if (!tag.isEmpty()) {
            where.append(" AND ").append(NoteFilter.tagCondition(NoteFilter.tagList(tag), params));
        }
        params.add(limit);
        return store.query("SELECT " + COLUMNS + " FROM notes WHERE " + where + " ORDER BY id DESC LIMIT ?",
                NotesDao::map, params.toArray());
    }

    /** Replaces a note's tags; false when there is no such note. */
    public boolean setTags(long id, String tags) {
        return store.update("UPDATE notes SET tags = ? WHERE id = ?", tags, id) > 0;
    }

    /** Note {@code id} is unread again (an A2A task in flight when the agent stopped: it is read and answered anew). */
    public void markUnread(long id) {
        store.update("UPDATE notes SET read = 0 WHERE id = ?", id);
    }

    public void markRead(Collection<Long> ids, long tickId) {
        for (long id : ids) store.update("UPDATE notes SET read = 1, tick_id = ? WHERE id = ?", tickId, id);
    }

    /** Deletes read notes whose tick is at or before {@code upToTick} and, when given, written before {@code before}. */
    public int deleteRead(long upToTick, String before) {
        return store.update("DELETE FROM notes WHERE read = 1 AND tick_id IS NOT NULL AND tick_id <= ? "
                + "AND (? = '' OR timestamp < ?)", upToTick, before, before);
    }

    /** The latest {@code limit} notes of any source (the LLM's messages too), newest first. */
    public List<NoteRow> latest(int limit) {
        return store.query("SELECT " + COLUMNS + " FROM notes ORDER BY id DESC LIMIT ?", NotesDao::map, limit);
    }

    /** Notes after {@code afterId}, any source, oldest first. */
    public List<NoteRow> after(long afterId, int limit) {
        return store.query("SELECT " + COLUMNS + " FROM notes WHERE id > ? ORDER BY id LIMIT ?", NotesDao::map, afterId, limit);
    }

    private static NoteRow map(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new NoteRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getInt(5) != 0,
                rs.getInt(6), rs.getString(7), NoteTags.fromJson(rs.getString(8)), NoteTags.fromJson(rs.getString(9)),
                rs.getLong(10));
    }
}
