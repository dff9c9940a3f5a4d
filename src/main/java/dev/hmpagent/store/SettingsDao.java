package dev.hmpagent.store;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/** The HMP {@code config} table: runtime cycle settings as key/value text. */
public final class SettingsDao {
    /** Appended to a key to hold the tick the LLM set it in. */
    public static final String TICK_SUFFIX = ".set_at_tick";
    private final Store store;
    /** The whole table (a few dozen rows), read again only when it may have changed ({@link Freshness}). */
    private final Freshness.Kept<Map<String, String>> kept;

    public SettingsDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
        this.kept = new Freshness.Kept<>(store, "config");
    }

    public Optional<String> get(String key) {
        return Optional.ofNullable(kept.get(this::read).get(key));
    }

    private Map<String, String> read() {
        return java.util.Collections.unmodifiableMap(all());
    }

    public void put(String key, String value) {
        // the same value again writes nothing: what the tick keeps of the settings stays kept
        store.update("INSERT INTO config(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
                + " WHERE value IS NOT excluded.value", key, value);
    }

    /**
     * Sets a key the LLM changed, with the tick it changed it in (kept under {@code key + }{@value #TICK_SUFFIX}),
     * so {@code agent config} and the prompt can say "set by the LLM at tick N".
     */
    public void putAtTick(String key, String value, long tickId) {
        put(key, value);
        put(key + TICK_SUFFIX, Long.toString(tickId));
    }

    /** Removes a key and the tick it was set at. */
    public void remove(String key) {
        store.update("DELETE FROM config WHERE key IN (?, ?)", key, key + TICK_SUFFIX);
    }

    /** The tick in which the LLM set {@code key}, if it did (see {@link #putAtTick}). */
    public Optional<Long> tickOf(String key) {
        return get(key + TICK_SUFFIX).filter(v -> v.strip().matches("\\d{1,18}")).map(v -> Long.parseLong(v.strip()));
    }

    public Map<String, String> all() {
        Map<String, String> map = new TreeMap<>();
        store.query("SELECT key, value FROM config", rs -> map.put(rs.getString(1), rs.getString(2)));
        return map;
    }
}
