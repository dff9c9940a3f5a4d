package dev.hmpagent.context;

/**
 * What the LLM may set the cycle settings to (agent.toml sets them; the LLM never can): {@code settings_set}
 * refuses a value outside, and the settings in force clamp a stored value into them.
 *
 * @param historyKMin fewest replies context 1 may show at the LLM's request
 * @param historyKMax most replies context 1 may show at the LLM's request
 */
public record SettingsBounds(int historyKMin, int historyKMax) {
    /** Used when agent.toml says nothing: 1 to 20 replies. */
    public static final SettingsBounds DEFAULTS = new SettingsBounds(1, 20);

    public SettingsBounds {
        if (historyKMin < 0) throw new IllegalArgumentException("historyKMin < 0: " + historyKMin);
        if (historyKMax < historyKMin) {
            throw new IllegalArgumentException("historyKMax " + historyKMax + " < historyKMin " + historyKMin);
        }
    }

    /** {@code k} moved into the bounds. */
    public int clampHistoryK(int k) {
        return Math.max(historyKMin, Math.min(historyKMax, k));
    }
}
