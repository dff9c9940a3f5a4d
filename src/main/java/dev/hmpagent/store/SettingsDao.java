package dev.hmpagent.store;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/** The HMP {@code config} table: runtime cycle settings as key/value text. */
public final class SettingsDao {
    private final Store store;

    public SettingsDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    public Optional<String> get(String key) {
        return store.queryOne("SELECT value FROM config WHERE key = ?", rs -> rs.getString(1), key);
    }

    public void put(String key, String value) {
        store.update("INSERT INTO config(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                key, value);
    }

    public Map<String, String> all() {
        Map<String, String> map = new TreeMap<>();
        store.query("SELECT key, value FROM config", rs -> map.put(rs.getString(1), rs.getString(2)));
        return map;
    }
}
