package dev.hmpagent.store;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code llm_registry}: the LLMs the agent may use, as configured by a person. An entry's {@code config_json} holds
 * {@code provider}, {@code base_url}, {@code model}, {@code priority} and {@code api_key_env} (the name of the
 * environment variable that holds its key, never the key). Reading an entry takes only those fields out of the JSON,
 * so whatever else a row holds never leaves this class, and the base URL comes back with any credentials masked.
 * The main LLM chosen by the LLM is stored in {@code config} under {@link #MAIN_LLM_KEY}; the agent reads it there.
 */
public final class LlmRegistryDao {
    /** The {@code config} key holding the {@code llm_registry.id} of the main LLM the LLM selected. */
    public static final String MAIN_LLM_KEY = "llm.main_id";

    /** An entry as it may be shown: no key, no key variable, a masked URL. */
    public record Entry(String id, String name, String description, String provider, String baseUrl, String model,
                        Long priority) { }

    private static final String FIELDS = "id, coalesce(name, ''), coalesce(description, ''), "
            + "CASE WHEN json_valid(config_json) THEN json_extract(config_json, '$.provider') END, "
            + "CASE WHEN json_valid(config_json) THEN json_extract(config_json, '$.base_url') END, "
            + "CASE WHEN json_valid(config_json) THEN json_extract(config_json, '$.model') END, "
            + "CASE WHEN json_valid(config_json) THEN json_extract(config_json, '$.priority') END";

    private final Store store;

    public LlmRegistryDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * Adds or replaces an entry (the agent does this from its configuration). {@code apiKeyEnv} is the name of
     * the variable holding the key; the key itself is never passed here.
     */
    /** The id of the LLM agent.toml configures, registered at every start. */
    public static final String MAIN_ID = "main";

    public void register(String id, String name, String description, String provider, String baseUrl, String model,
                         int priority, String apiKeyEnv) {
        store.update("INSERT INTO llm_registry(id, name, description, config_json, registered_at) VALUES (?, ?, ?, "
                + "json_object('provider', ?, 'base_url', ?, 'model', ?, 'priority', ?, 'api_key_env', ?), ?) "
                + "ON CONFLICT(id) DO UPDATE SET name = excluded.name, description = excluded.description, "
                + "config_json = excluded.config_json", id, name, description, provider, baseUrl, model, priority,
                apiKeyEnv, store.now());
    }

    /**
     * Marks {@code id} as an entry of agent.toml's llm.registry, so a later start without it removes it again
     * ({@link #retainConfigured}); entries put in the file by other means are left alone.
     */
    public void markConfigured(String id) {
        store.update("UPDATE llm_registry SET config_json = json_set(config_json, '$.source', 'agent.toml') WHERE id = ? "
                + "AND json_valid(config_json)", id);
    }

    /** Removes the entries agent.toml once configured and no longer does (not {@code ids}). */
    public void retainConfigured(java.util.Collection<String> ids) {
        List<String> stale = store.query("SELECT id FROM llm_registry WHERE json_valid(config_json) "
                + "AND json_extract(config_json, '$.source') = 'agent.toml'", rs -> rs.getString(1)).stream()
                .filter(id -> !ids.contains(id)).toList();
        for (String id : stale) store.update("DELETE FROM llm_registry WHERE id = ?", id);
    }

    /** The entries, lowest priority number first (no priority last), then by id. */
    public List<Entry> list() {
        return store.query("SELECT " + FIELDS + " FROM llm_registry ORDER BY "
                + "CASE WHEN json_valid(config_json) THEN json_extract(config_json, '$.priority') END IS NULL, "
                + "CASE WHEN json_valid(config_json) THEN json_extract(config_json, '$.priority') END, id",
                LlmRegistryDao::map);
    }

    /**
     * Where an entry's requests go, unmasked, for the agent's own use only (never shown, never stored elsewhere):
     * the provider, the base URL, the model and the name of the variable holding its key ("" when none).
     */
    public record Route(String id, String provider, String baseUrl, String model, String apiKeyEnv) { }

    /** The routes of the entries other than {@code exceptId} that name a base URL and a model, in priority order. */
    public List<Route> routesExcept(String exceptId) {
        return store.query("SELECT id, coalesce(json_extract(config_json, '$.provider'), ''), "
                + "json_extract(config_json, '$.base_url'), json_extract(config_json, '$.model'), "
                + "coalesce(json_extract(config_json, '$.api_key_env'), '') FROM llm_registry WHERE id <> ? "
                + "AND json_valid(config_json) AND json_extract(config_json, '$.base_url') IS NOT NULL "
                + "AND json_extract(config_json, '$.model') IS NOT NULL ORDER BY "
                + "json_extract(config_json, '$.priority') IS NULL, json_extract(config_json, '$.priority'), id",
                rs -> new Route(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5)),
                exceptId);
    }

    /** The entry with that id, or else the only entry with that name. */
    public Optional<Entry> find(String idOrName) {
        Optional<Entry> byId = store.queryOne("SELECT " + FIELDS + " FROM llm_registry WHERE id = ?",
                LlmRegistryDao::map, idOrName);
        if (byId.isPresent()) return byId;
        List<Entry> byName = store.query("SELECT " + FIELDS + " FROM llm_registry WHERE name = ?",
                LlmRegistryDao::map, idOrName);
        return byName.size() == 1 ? Optional.of(byName.get(0)) : Optional.empty();
    }

    /** Records {@code id} as the main LLM; it must be a registered entry. */
    public void select(String id) {
        if (store.queryLong("SELECT count(*) FROM llm_registry WHERE id = ?", id) == 0) {
            throw new IllegalArgumentException("no llm_registry entry " + id);
        }
        store.update("INSERT INTO config(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                MAIN_LLM_KEY, id);
    }

    /** The id the LLM selected as the main LLM, if any. */
    public Optional<String> selected() {
        return store.queryOne("SELECT value FROM config WHERE key = ?", rs -> rs.getString(1), MAIN_LLM_KEY);
    }

    private static Entry map(java.sql.ResultSet rs) throws java.sql.SQLException {
        Object priority = rs.getObject(7);
        return new Entry(rs.getString(1), rs.getString(2), rs.getString(3), text(rs.getObject(4)),
                rs.getObject(5) == null ? null : maskUrl(rs.getObject(5).toString()), text(rs.getObject(6)),
                priority instanceof Number n ? n.longValue() : null);
    }

    private static String text(Object o) {
        return o == null ? null : o.toString();
    }

    /**
     * A URL with the parts that may carry a credential masked: {@code user:password@} and every query value
     * ({@code https://****@host/v1?key=****}).
     */
    static String maskUrl(String url) {
        String out = url.replaceFirst("^([A-Za-z][A-Za-z0-9+.-]*://)[^/@?#]*@", "$1****@");
        int q = out.indexOf('?');
        if (q < 0) return out;
        int hash = out.indexOf('#', q);
        String query = hash < 0 ? out.substring(q + 1) : out.substring(q + 1, hash);
        return out.substring(0, q + 1) + query.replaceAll("=[^&]*", "=****") + (hash < 0 ? "" : out.substring(hash));
    }
}
