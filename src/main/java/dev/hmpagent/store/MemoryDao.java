package dev.hmpagent.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** {@code llm_memory}: the LLM's notebook (context 6). */
public final class MemoryDao {
    /** A blank query, or title, content or tags containing it (parameters: query, like, like, like). */
    private static final String MATCHES = "(? = '' OR title LIKE ? ESCAPE '\\' OR content LIKE ? ESCAPE '\\' "
            + "OR tags LIKE ? ESCAPE '\\')";
    private final Store store;

    public MemoryDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    public long add(String title, String content, String tags, String llmId) {
        String now = store.now();
        return store.insert("INSERT INTO llm_memory(title, content, tags, created_at, updated_at, llm_id) VALUES (?, ?, ?, ?, ?, ?)",
                title, content, tags, now, now, llmId);
    }

    public boolean delete(long id) {
        return store.update("DELETE FROM llm_memory WHERE id = ?", id) > 0;
    }

    /** The newest entries first. */
    public List<MemoryRow> latest(int limit) {
        return store.queryKept("SELECT id, title, content, tags, updated_at FROM llm_memory ORDER BY id DESC LIMIT ?",
                rs -> new MemoryRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5)), limit);
    }

    /** The newest entries first that carry one of {@code tags} (empty: any entry). */
    public List<MemoryRow> withTags(List<String> tags, int limit) {
        List<Object> params = new ArrayList<>();
        StringBuilder where = new StringBuilder(tags.isEmpty() ? "1" : "(");
        for (int i = 0; i < tags.size(); i++) {
            if (i > 0) where.append(" OR ");
            where.append("(',' || lower(replace(coalesce(tags, ''), ' ', '')) || ',') LIKE ? ESCAPE '\\'");
            params.add("%," + Store.likeLiteral(NoteFilter.asciiLower(tags.get(i).replace(" ", ""))) + ",%");
        }
        if (!tags.isEmpty()) where.append(')');
        params.add(limit);
        return store.query("SELECT id, title, content, tags, updated_at FROM llm_memory WHERE " + where
                        + " ORDER BY id DESC LIMIT ?",
                rs -> new MemoryRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5)),
                params.toArray());
    }

    /** Entries whose title, content or tags contain {@code query} (every entry when blank), newest first. */
    public List<MemoryRow> search(String query, int limit) {
        String like = "%" + Store.likeLiteral(query.strip()) + "%";
        return store.query("SELECT id, title, content, tags, updated_at FROM llm_memory WHERE " + MATCHES
                        + " ORDER BY id DESC LIMIT ?",
                rs -> new MemoryRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5)),
                query.strip(), like, like, like, limit);
    }

    /** How many entries {@link #search} would find without a limit. */
    public long searchCount(String query) {
        String like = "%" + Store.likeLiteral(query.strip()) + "%";
        return store.queryLong("SELECT count(*) FROM llm_memory WHERE " + MATCHES, query.strip(), like, like, like);
    }

    public long count() {
        return store.queryLong("SELECT count(*) FROM llm_memory");
    }
}
