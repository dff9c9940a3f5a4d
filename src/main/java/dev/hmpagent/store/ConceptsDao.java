package dev.hmpagent.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** {@code concepts} and {@code links}: the semantic graph (context 3 on request, and while pinned). */
public final class ConceptsDao {
    private static final String LINK_COLUMNS = "l.id, l.from_concept_id, f.name, coalesce(l.relation_type, 'related_to'), "
            + "l.to_concept_id, t.name";
    private static final String LINKS = " FROM links l JOIN concepts f ON f.id = l.from_concept_id "
            + "JOIN concepts t ON t.id = l.to_concept_id ";
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

    public Optional<ConceptRow> get(long id) {
        return exists(id) ? Optional.of(load(id)) : Optional.empty();
    }

    private boolean exists(long id) {
        return store.queryLong("SELECT count(*) FROM concepts WHERE id = ?", id) > 0;
    }

    /** Renames (when {@code newName} is not null) and re-describes (when {@code description} is not null). */
    public boolean update(long id, String newName, String description) {
        return store.update("UPDATE concepts SET name = coalesce(?, name), description = coalesce(?, description) "
                + "WHERE id = ?", newName, description, id) > 0;
    }

    /** Deletes the concept and every link to or from it; returns how many links went, or -1 for no such concept. */
    public int delete(long id) {
        if (!exists(id)) return -1;
        int links = store.update("DELETE FROM links WHERE from_concept_id = ? OR to_concept_id = ?", id, id);
        store.update("DELETE FROM concepts WHERE id = ?", id);
        return links;
    }

    public long link(long fromId, long toId, String relation, String llmId) {
        return store.insert("INSERT INTO links(from_concept_id, to_concept_id, relation_type, timestamp, llm_id) "
                + "VALUES (?, ?, ?, ?, ?)", fromId, toId, relation, store.now(), llmId);
    }

    public Optional<LinkRow> linkById(long id) {
        return store.queryOne("SELECT " + LINK_COLUMNS + LINKS + "WHERE l.id = ?", ConceptsDao::mapLink, id);
    }

    public boolean unlink(long linkId) {
        return store.update("DELETE FROM links WHERE id = ?", linkId) > 0;
    }

    /** Deletes the links from one concept to another, of one relation (null: any); returns how many. */
    public int unlink(long fromId, long toId, String relation) {
        return store.update("DELETE FROM links WHERE from_concept_id = ? AND to_concept_id = ? "
                + "AND (? IS NULL OR relation_type = ?)", fromId, toId, relation, relation);
    }

    /** Every link to or from the concept, outgoing first. */
    public List<LinkRow> linksOf(long id) {
        return store.query("SELECT " + LINK_COLUMNS + LINKS + "WHERE l.from_concept_id = ? UNION ALL SELECT "
                + LINK_COLUMNS + LINKS + "WHERE l.to_concept_id = ? AND l.from_concept_id <> ?", ConceptsDao::mapLink,
                id, id, id);
    }

    /**
     * The concepts within {@code depth} links of {@code id} (either direction), nearest first, each with
     * its distance and the link that first reached it; at most {@code limit}.
     */
    public List<Neighbour> neighbours(long id, int depth, int limit) {
        Map<Long, Neighbour> found = new LinkedHashMap<>();
        List<Long> frontier = List.of(id);
        for (int d = 1; d <= depth && !frontier.isEmpty(); d++) {
            List<Long> next = new ArrayList<>();
            for (long at : frontier) {
                for (LinkRow l : linksOf(at)) {
                    long other = l.fromId() == at ? l.toId() : l.fromId();
                    if (other == id || found.containsKey(other)) continue;
                    found.put(other, new Neighbour(other, l.fromId() == at ? l.to() : l.from(), d, l));
                    next.add(other);
                    if (found.size() >= limit) return List.copyOf(found.values());
                }
            }
            frontier = next;
        }
        return List.copyOf(found.values());
    }

    public long count() {
        return store.queryLong("SELECT count(*) FROM concepts");
    }

    public long linkCount() {
        return store.queryLong("SELECT count(*) FROM links");
    }

    /** A concept and how many links it has, in and out. */
    public record Degree(long id, String name, long links) { }

    /** The {@code limit} concepts with the most links (in and out), most first, then by name. */
    public List<Degree> mostLinked(int limit) {
        return store.query("SELECT c.id, c.name, (SELECT count(*) FROM links l WHERE l.from_concept_id = c.id) "
                + "+ (SELECT count(*) FROM links l WHERE l.to_concept_id = c.id) AS n FROM concepts c "
                + "ORDER BY n DESC, c.name LIMIT ?", rs -> new Degree(rs.getLong(1), rs.getString(2), rs.getLong(3)),
                limit);
    }

    /** The concept with exactly this name, or else the only one whose name differs from it in letter case only. */
    public Optional<Long> idOfIgnoringCase(String name) {
        Optional<Long> exact = idOf(name);
        if (exact.isPresent()) return exact;
        List<Long> ids = store.query("SELECT id FROM concepts WHERE lower(name) = lower(?) LIMIT 2",
                rs -> rs.getLong(1), name);
        return ids.size() == 1 ? Optional.of(ids.get(0)) : Optional.empty();
    }

    /** Up to {@code limit} concept names containing {@code part} (any when blank), shortest first. */
    public List<String> namesLike(String part, int limit) {
        return store.query("SELECT name FROM concepts WHERE name LIKE ? ESCAPE '\\' ORDER BY length(name), name LIMIT ?",
                rs -> rs.getString(1), "%" + Store.likeLiteral(part.strip()) + "%", limit);
    }

    /** A concept near another: its id and name, how many links away, and the link that reached it. */
    public record Neighbour(long id, String name, int distance, LinkRow via) { }

    public boolean pin(long id, long tickId) {
        return store.update("UPDATE concepts SET pinned_tick = CASE pinned WHEN 1 THEN pinned_tick ELSE ? END, "
                + "pinned = 1 WHERE id = ?", tickId, id) > 0;
    }

    public boolean unpin(long id) {
        return store.update("UPDATE concepts SET pinned = 0, pinned_tick = NULL WHERE id = ?", id) > 0;
    }

    /** The {@code limit} most recently pinned concepts with their links, oldest pin first. */
    public List<Pinned<ConceptRow>> pinned(int limit) {
        List<long[]> ids = new ArrayList<>(store.queryKept("SELECT id, coalesce(pinned_tick, 0) FROM concepts "
                + "WHERE pinned = 1 ORDER BY pinned_tick DESC, id DESC LIMIT ?", rs -> new long[] {rs.getLong(1), rs.getLong(2)},
                limit));
        Collections.reverse(ids);
        return ids.stream().map(p -> new Pinned<>(load(p[0]), p[1])).toList();
    }

    public long pinnedCount() {
        return store.queryLongKept("SELECT count(*) FROM concepts WHERE pinned = 1");
    }

    /** Concepts whose name or description contains {@code query} (any when blank), with their links. */
    public List<ConceptRow> search(String query, int limit) {
        String like = "%" + Store.likeLiteral(query.strip()) + "%";
        List<long[]> ids = store.queryKept("SELECT id FROM concepts WHERE ? = '' OR name LIKE ? ESCAPE '\\' "
                + "OR description LIKE ? ESCAPE '\\' ORDER BY id DESC LIMIT ?", rs -> new long[] {rs.getLong(1)},
                query.strip(), like, like, limit);
        return ids.stream().map(id -> load(id[0])).toList();
    }

    /**
     * Unpinned concepts, the longest untouched first: touched means created, or given a link to or from it. For the
     * reflex's "interest memory", which brings a forgotten topic back.
     */
    public List<ConceptRow> leastRecentlyTouched(int limit) {
        List<long[]> ids = store.query("SELECT c.id FROM concepts c WHERE c.pinned = 0 ORDER BY max(coalesce(c.timestamp, ''), "
                + "coalesce((SELECT max(l.timestamp) FROM links l WHERE l.from_concept_id = c.id "
                + "OR l.to_concept_id = c.id), '')), c.id LIMIT ?", rs -> new long[] {rs.getLong(1)}, limit);
        return ids.stream().map(id -> load(id[0])).toList();
    }

    private ConceptRow load(long id) {
        List<String> links = store.queryKept("""
                SELECT l.relation_type || ' ' || t.name FROM links l JOIN concepts t ON t.id = l.to_concept_id
                WHERE l.from_concept_id = ?
                UNION ALL
                SELECT '(' || f.name || ' ' || l.relation_type || ' this)' FROM links l
                JOIN concepts f ON f.id = l.from_concept_id WHERE l.to_concept_id = ?""",
                rs -> rs.getString(1), id, id);
        return store.queryOneKept("SELECT id, name, coalesce(description, ''), pinned FROM concepts WHERE id = ?",
                rs -> new ConceptRow(rs.getLong(1), rs.getString(2), rs.getString(3), links, rs.getInt(4) != 0), id)
                .orElseThrow();
    }

    private static LinkRow mapLink(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new LinkRow(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getLong(5), rs.getString(6));
    }
}
