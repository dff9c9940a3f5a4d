package dev.hmpagent.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** {@code diary_entries}: the cognitive diary (context 3 on request, and while pinned). */
public final class DiaryDao {
    private static final String COLUMNS = "id, text, tags, coalesce(priority, 0), timestamp, pinned";
    private final Store store;

    public DiaryDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    public long add(String text, String tags, int priority, String llmId) {
        return store.insert("INSERT INTO diary_entries(text, tags, priority, timestamp, llm_id) VALUES (?, ?, ?, ?, ?)",
                text, tags, priority, store.now(), llmId);
    }

    public Optional<DiaryRow> get(long id) {
        return store.queryOne("SELECT " + COLUMNS + " FROM diary_entries WHERE id = ?", DiaryDao::map, id);
    }

    /** Entries whose text or tags contain {@code query} (any entry when blank), newest first. */
    public List<DiaryRow> search(String query, int limit) {
        String like = "%" + Store.likeLiteral(query.strip()) + "%";
        return store.query("SELECT " + COLUMNS + " FROM diary_entries WHERE ? = '' OR text LIKE ? ESCAPE '\\' "
                + "OR tags LIKE ? ESCAPE '\\' ORDER BY id DESC LIMIT ?", DiaryDao::map, query.strip(), like, like, limit);
    }

    /** How many entries {@link #search} would find without a limit. */
    public long searchCount(String query) {
        String like = "%" + Store.likeLiteral(query.strip()) + "%";
        return store.queryLong("SELECT count(*) FROM diary_entries WHERE ? = '' OR text LIKE ? ESCAPE '\\' "
                + "OR tags LIKE ? ESCAPE '\\'", query.strip(), like, like);
    }

    public List<DiaryRow> byIds(List<Long> ids) {
        return ids.stream().flatMap(id -> get(id).stream()).toList();
    }

    /** Changes the fields given (null: unchanged); false when there is no such entry. */
    public boolean update(long id, String text, String tags, Integer priority) {
        return store.update("UPDATE diary_entries SET text = coalesce(?, text), tags = coalesce(?, tags), "
                + "priority = coalesce(?, priority) WHERE id = ?", text, tags, priority, id) > 0;
    }

    public boolean delete(long id) {
        return store.update("DELETE FROM diary_entries WHERE id = ?", id) > 0;
    }

    /** Pins the entry (a pin already there keeps its tick); false when there is no such entry. */
    public boolean pin(long id, long tickId) {
        return store.update("UPDATE diary_entries SET pinned_tick = CASE pinned WHEN 1 THEN pinned_tick ELSE ? END, "
                + "pinned = 1 WHERE id = ?", tickId, id) > 0;
    }

    public boolean unpin(long id) {
        return store.update("UPDATE diary_entries SET pinned = 0, pinned_tick = NULL WHERE id = ?", id) > 0;
    }

    /** The {@code limit} most recently pinned entries, each with the tick it was pinned in, oldest pin first. */
    public List<Pinned<DiaryRow>> pinned(int limit) {
        List<Pinned<DiaryRow>> rows = new ArrayList<>(store.queryKept("SELECT " + COLUMNS + ", coalesce(pinned_tick, 0) "
                + "FROM diary_entries WHERE pinned = 1 ORDER BY pinned_tick DESC, id DESC LIMIT ?",
                rs -> new Pinned<>(map(rs), rs.getLong(7)), limit));
        Collections.reverse(rows);
        return rows;
    }

    public long pinnedCount() {
        return store.queryLongKept("SELECT count(*) FROM diary_entries WHERE pinned = 1");
    }

    private static DiaryRow map(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new DiaryRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getString(5),
                rs.getInt(6) != 0);
    }
}
