package dev.hmpagent.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The effective configuration plus where each value came from.
 *
 * @param origins dotted key name to origin; must cover exactly the {@link ConfigKey}s (kept in table order)
 */
public record LoadedConfig(AgentConfig config, Map<String, Origin> origins) {
    public LoadedConfig {
        Objects.requireNonNull(config, "config");
        origins = inTableOrder(Objects.requireNonNull(origins, "origins"));
    }

    /** Copies into {@link ConfigKey} order; every key must be present and no other. */
    private static Map<String, Origin> inTableOrder(Map<String, Origin> origins) {
        Map<String, Origin> ordered = new LinkedHashMap<>();
        for (ConfigKey key : ConfigKey.values()) {
            Origin origin = origins.get(key.fullName());
            if (origin == null) {
                throw new IllegalArgumentException("no origin for " + key.fullName());
            }
            ordered.put(key.fullName(), origin);
        }
        if (ordered.size() != origins.size()) {
            throw new IllegalArgumentException("origins for unknown keys: " + origins.keySet());
        }
        return Collections.unmodifiableMap(ordered);
    }

    /** Built-in defaults, every origin {@code default}. */
    public static LoadedConfig defaults() {
        ConfigValues values = ConfigValues.defaults();
        return new LoadedConfig(values.toConfig(), values.origins());
    }

    public Origin origin(ConfigKey key) {
        return origins.get(key.fullName());
    }

    /** Values longer than this (long lists) are not padded to: the origins of the short ones stay aligned. */
    static final int ALIGNED_VALUE_WIDTH = 40;

    /**
     * One aligned line per key, in table order, e.g.
     * {@code llm.base_url = http://localhost:11434/v1  (default)}; lists as TOML arrays. Secrets are masked.
     */
    public List<String> describe() {
        int nameWidth = 0;
        int valueWidth = 0;
        for (ConfigKey key : ConfigKey.values()) {
            nameWidth = Math.max(nameWidth, key.fullName().length());
            int width = key.displayValue(config).length();
            if (width <= ALIGNED_VALUE_WIDTH) {
                valueWidth = Math.max(valueWidth, width);
            }
        }
        String format = "%-" + nameWidth + "s = %-" + valueWidth + "s  (%s)";
        List<String> lines = new ArrayList<>();
        for (ConfigKey key : ConfigKey.values()) {
            lines.add(String.format(format, key.fullName(), key.displayValue(config), origin(key)));
        }
        return List.copyOf(lines);
    }
}
