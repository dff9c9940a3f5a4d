package dev.hmpagent.store;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * {@code identity}: who the agent is. Only {@link #LLM_FIELDS} may be changed by the LLM; the id and the keys are a
 * person's (the private key is never read here at all).
 */
public final class IdentityDao {
    /** The columns the LLM may write: column name by field name (the same). */
    public static final Map<String, String> LLM_FIELDS = Map.of("name", "name", "metadata", "metadata");

    /** An identity without its private key. */
    public record Identity(String id, String name, String pubkey, String metadata, String createdAt, String updatedAt) { }

    private final Store store;

    public IdentityDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    public List<Identity> all() {
        return store.query("SELECT id, coalesce(name, ''), coalesce(pubkey, ''), coalesce(metadata, ''), "
                + "coalesce(created_at, ''), coalesce(updated_at, '') FROM identity ORDER BY created_at, id",
                rs -> new Identity(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                        rs.getString(6)));
    }

    /** Creates an identity with a random UUID id and no keys; returns the id. */
    public String create() {
        String id = UUID.randomUUID().toString();
        String now = store.now();
        store.update("INSERT INTO identity(id, created_at, updated_at) VALUES (?, ?, ?)", id, now, now);
        return id;
    }

    /**
     * The agent's own id: the first identity's, made (a random UUID) on first use; what a message's trace names this
     * agent by (issue 37). Call inside a transaction when it may create one.
     */
    public String own() {
        return all().stream().findFirst().map(Identity::id).orElseGet(this::create);
    }

    /** Sets one of {@link #LLM_FIELDS}; false when no identity has that id. */
    public boolean update(String id, String field, String value) {
        String column = LLM_FIELDS.get(field);
        if (column == null) throw new IllegalArgumentException("identity field not writable: " + field);
        return store.update("UPDATE identity SET " + column + " = ?, updated_at = ? WHERE id = ?", value, store.now(), id) > 0;
    }

    /** The id this agent signs its ratings with: its first identity, or "self" before it has one. */
    public String selfId() {
        List<Identity> ids = all();
        return ids.isEmpty() ? "self" : ids.get(0).id();
    }
}
