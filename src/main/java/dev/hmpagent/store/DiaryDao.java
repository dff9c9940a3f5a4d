package dev.hmpagent.store;

import java.util.List;
import java.util.Objects;

/** {@code diary_entries}: the cognitive diary (context 3 on request). */
public final class DiaryDao {
    private static final String COLUMNS = "id, text, tags, coalesce(priority, 0), timestamp";
    private final Store store;

    public DiaryDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    public long add(String text, String tags, int priority, String llmId) {
        return store.insert("INSERT INTO diary_entries(text, tags, priority, timestamp, llm_id) VALUES (?, ?, ?, ?, ?)",
                text, tags, priority, store.now(), llmId);
    }

    /** Entries whose text or tags contain {@code query} (any entry when blank), newest first. */
    public List<DiaryRow> search(String query, int limit) {
        String like = "%" + Store.likeLiteral(query.strip()) + "%";
        return store.query("SELECT " + COLUMNS + " FROM diary_entries WHERE ? = '' OR text LIKE ? ESCAPE '\\' "
                + "OR tags LIKE ? ESCAPE '\\' ORDER BY id DESC LIMIT ?", DiaryDao::map, query.strip(), like, like, limit);
    }

    public List<DiaryRow> byIds(List<Long> ids) {
        return ids.stream().flatMap(id -> store.queryOne("SELECT " + COLUMNS + " FROM diary_entries WHERE id = ?",
                DiaryDao::map, id).stream()).toList();
    }

    private static DiaryRow map(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new DiaryRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getString(5));
    }
}
