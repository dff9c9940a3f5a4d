package dev.hmpagent.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * {@code agent_peers}, the HMP agents this one knows, and its outbox to them: a message to a peer is a note
 * (source {@code llm}, born read so it never comes back as input) with {@code peer_id} naming the peer and
 * {@code delivery_status} {@code pending} until its delivery over A2A moves it on ({@link #DELIVERIES}). A peer reached
 * over A2A has a URL, its fetched agent card (JSON) and the NAME of the environment variable holding its token.
 */
public final class PeersDao {
    /** The HMP peer statuses. */
    public static final Set<String> STATUSES = Set.of("unknown", "online", "offline", "untrusted", "blacklisted");
    /** The columns a command may set, besides the id: column name by argument name (the same). */
    public static final Set<String> FIELDS = Set.of("name", "addresses", "tags", "status", "description",
            "capabilities", "pubkey", "url", "card", "token_env");
    /** What becomes of a message to a peer: queued, handed to the peer, answered by it (delivered), or not delivered. */
    public static final Set<String> DELIVERIES = Set.of("pending", "sent", "delivered", "failed");

    public record Peer(String id, String name, String addresses, String tags, String status, String description,
                       String capabilities, String pubkey, String lastSeen, String url, String card, String tokenEnv) {
        /** Whether the peer is reached over A2A (it has a URL). */
        public boolean reachable() {
            return !url.isEmpty();
        }
    }

    /** A child agent this one spawned (issue 37): its name (its id here) and the URL it serves A2A on. */
    public record Child(String name, String url) { }

    public record OutgoingMessage(long id, String peerId, String text, String deliveryStatus, String timestamp) { }

    private static final String COLUMNS = "id, coalesce(name, ''), coalesce(addresses, ''), coalesce(tags, ''), "
            + "coalesce(status, 'unknown'), coalesce(description, ''), coalesce(capabilities, ''), coalesce(pubkey, ''), "
            + "coalesce(last_seen, ''), coalesce(url, ''), coalesce(card, ''), coalesce(token_env, '')";

    private final Store store;

    public PeersDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    public List<Peer> all() {
        return store.query("SELECT " + COLUMNS + " FROM agent_peers ORDER BY name, id", PeersDao::map);
    }

    /** The peer with that id, or else the one with that name. */
    public Optional<Peer> find(String idOrName) {
        Optional<Peer> byId = store.queryOne("SELECT " + COLUMNS + " FROM agent_peers WHERE id = ?", PeersDao::map, idOrName);
        if (byId.isPresent()) return byId;
        return store.queryOne("SELECT " + COLUMNS + " FROM agent_peers WHERE name = ? ORDER BY id LIMIT 1",
                PeersDao::map, idOrName);
    }

    /** Adds a peer with the given {@link #FIELDS} (source {@code llm}); the caller has checked id and name are free. */
    public void add(String id, Map<String, String> fields) {
        add(id, "llm", fields);
    }

    /** As {@link #add(String, Map)}, added by {@code source} ({@code llm}, {@code cli}). */
    public void add(String id, String source, Map<String, String> fields) {
        List<String> cols = new ArrayList<>(List.of("id", "source", "registered_at"));
        List<Object> values = new ArrayList<>(List.of(id, source, store.now()));
        for (Map.Entry<String, String> e : checked(fields).entrySet()) {
            cols.add(e.getKey());
            values.add(e.getValue());
        }
        store.update("INSERT INTO agent_peers(" + String.join(", ", cols) + ") VALUES ("
                + "?, ".repeat(cols.size() - 1) + "?)", values.toArray());
    }

    /** Sets the given {@link #FIELDS} of a peer; false when there is no peer with that id. */
    public boolean update(String id, Map<String, String> fields) {
        if (fields.isEmpty()) return find(id).isPresent();
        List<String> sets = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        for (Map.Entry<String, String> e : checked(fields).entrySet()) {
            sets.add(e.getKey() + " = ?");
            values.add(e.getValue());
        }
        values.add(id);
        return store.update("UPDATE agent_peers SET " + String.join(", ", sets) + " WHERE id = ?", values.toArray()) > 0;
    }

    /**
     * Records a child this agent spawned (tags {@code child}, source {@code spawn}), or its new URL when it was
     * spawned before.
     */
    public void putChild(String name, String url) {
        store.update("INSERT INTO agent_peers(id, name, tags, status, source, registered_at, url, description) "
                + "VALUES (?, ?, 'child', 'online', 'spawn', ?, ?, 'a child agent this one spawned') "
                + "ON CONFLICT(id) DO UPDATE SET url = excluded.url, status = 'online'", name, name, store.now(), url);
    }

    /** The children this agent spawned, in the order they were first spawned. */
    public List<Child> children() {
        return store.query("SELECT id, coalesce(url, '') FROM agent_peers WHERE source = 'spawn' "
                + "ORDER BY registered_at, id", rs -> new Child(rs.getString(1), rs.getString(2)));
    }

    public boolean delete(String id) {
        return store.update("DELETE FROM agent_peers WHERE id = ?", id) > 0;
    }

    /** Queues a message to a peer: a read {@code llm} note addressed to it, delivery pending. Returns the note id. */
    public long addOutgoingMessage(String peerId, String text, String llmId, long tickId) {
        return store.insert("INSERT INTO notes(text, source, priority, timestamp, read, llm_id, tick_id, peer_id, "
                + "delivery_status) VALUES (?, 'llm', 0, ?, 1, ?, ?, ?, 'pending')", text, store.now(), llmId, tickId, peerId);
    }

    /** Moves a message to a peer on to {@code status} (one of {@link #DELIVERIES}); false when there is no such note. */
    public boolean deliver(long noteId, String status) {
        if (!DELIVERIES.contains(status)) throw new IllegalArgumentException("bad delivery status: " + status);
        return store.update("UPDATE notes SET delivery_status = ? WHERE id = ? AND peer_id IS NOT NULL", status, noteId) > 0;
    }

    /** Messages to peers, oldest first, of one delivery status ({@code pending}, ...). */
    public List<OutgoingMessage> outbox(String deliveryStatus, int limit) {
        return store.query("SELECT id, peer_id, text, delivery_status, timestamp FROM notes WHERE delivery_status = ? "
                + "ORDER BY id LIMIT ?", rs -> new OutgoingMessage(rs.getLong(1), rs.getString(2), rs.getString(3),
                rs.getString(4), rs.getString(5)), deliveryStatus, limit);
    }

    private static Map<String, String> checked(Map<String, String> fields) {
        for (String k : fields.keySet()) {
            if (!FIELDS.contains(k)) throw new IllegalArgumentException("agent_peers column not writable: " + k);
        }
        String status = fields.get("status");
        if (status != null && !STATUSES.contains(status)) throw new IllegalArgumentException("bad peer status: " + status);
        return fields;
    }

    private static Peer map(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new Peer(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getString(6), rs.getString(7), rs.getString(8), rs.getString(9), rs.getString(10), rs.getString(11),
                rs.getString(12));
    }
}
