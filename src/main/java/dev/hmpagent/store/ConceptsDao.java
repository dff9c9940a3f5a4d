package dev.hmpagent.store;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** {@code concepts} and {@code links}: the semantic graph (context 3 on request). */
public final class ConceptsDao {
    private final Store store;

    public ConceptsDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** Adds the concept, or updates the description of the one with that name; returns its id. */
    public long upsert(String name, String description, String llmId) {
        Optional<Long> existing = idOf(name);
        if (existing.isPresent()) {
            if (description != null) store.update("UPDATE concepts SET description = ? WHERE id = ?", description, existing.get());
            return existing.get();
        }
        return store.insert("INSERT INTO concepts(name, description, timestamp, llm_id) VALUES (?, ?, ?, ?)",
                name, description, store.now(), llmId);
    }

    public Optional<Long> idOf(String name) {
        return store.queryOne("SELECT id FROM concepts WHERE name = ?", rs -> rs.getLong(1), name);
    }

    public long link(long fromId, long toId, String relation, String llmId) {
        return store.insert("INSERT INTO links(from_concept_id, to_concept_id, relation_type, timestamp, llm_id) "
                + "VALUES (?, ?, ?, ?, ?)", fromId, toId, relation, store.now(), llmId);
    }

    /** Concepts whose name or description contains {@code query} (any when blank), with their links. */
    public List<ConceptRow> search(String query, int limit) {
        String like = "%" + Store.likeLiteral(query.strip()) + "%";
        List<long[]> ids = store.query("SELECT id FROM concepts WHERE ? = '' OR name LIKE ? ESCAPE '\\' "
                + "OR description LIKE ? ESCAPE '\\' ORDER BY id DESC LIMIT ?", rs -> new long[] {rs.getLong(1)},
                query.strip(), like, like, limit);
        return ids.stream().map(id -> load(id[0])).toList();
    }

    private ConceptRow load(long id) {
        List<String> links = store.query("""
                SELECT l.relation_type || ' ' || t.name FROM links l JOIN concepts t ON t.id = l.to_concept_id
                WHERE l.from_concept_id = ?
                UNION ALL
                SELECT '(' || f.name || ' ' || l.relation_type || ' this)' FROM links l
                JOIN concepts f ON f.id = l.from_concept_id WHERE l.to_concept_id = ?""",
                rs -> rs.getString(1), id, id);
        return store.queryOne("SELECT id, name, coalesce(description, '') FROM concepts WHERE id = ?",
                rs -> new ConceptRow(rs.getLong(1), rs.getString(2), rs.getString(3), links), id).orElseThrow();
    }
}
