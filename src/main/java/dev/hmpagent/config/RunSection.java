package dev.hmpagent.config;

/**
 * The [run] section: how {@code agent run} paces the cycle headless.
 *
 * @param hz         ticks per second of the fixed-rate loop (0.1 to 50)
 * @param maxCatchUp with catch-up on, most missed frames run back to back after a slow tick; the rest are skipped
 */
public record RunSection(double hz, int maxCatchUp) {
    public RunSection {
        if (!(hz >= 0.1 && hz <= 50)) throw new IllegalArgumentException("hz must be from 0.1 to 50: " + hz);
        if (maxCatchUp < 0) throw new IllegalArgumentException("maxCatchUp must not be negative: " + maxCatchUp);
    }
}
