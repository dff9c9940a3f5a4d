package dev.hmpagent.stagnation;

import java.util.Locale;

/**
 * The thresholds of the signs of stagnation ({@link StagnationSigns}).
 *
 * @param noveltyThreshold a reply whose novelty is below this is "not new" (0..1)
 * @param lowNoveltyTicks  how many replies in a row must be not new (at least 1; the window needs 2 anyway)
 * @param repeatSign       whether a word-for-word repeat is a sign (the config's repeat_window &gt; 0)
 * @param noGrowthTicks    how many ticks without a new concept or link make a sign; 0 = off
 * @param noStimulusTicks  how many ticks without a new note, result or message make a sign; 0 = off
 * @param overheatTicks    a stagnant window this long (LLM ticks since the last person message) is a long,
 *                         overheated run
 */
public record SignSettings(double noveltyThreshold, int lowNoveltyTicks, boolean repeatSign, int noGrowthTicks,
                           int noStimulusTicks, int overheatTicks) {
    public static final SignSettings DEFAULTS = new SignSettings(0.3, 2, true, 8, 8, 12);

    public SignSettings {
        if (!(noveltyThreshold >= 0 && noveltyThreshold <= 1)) {
            throw new IllegalArgumentException("noveltyThreshold must be 0..1, was " + noveltyThreshold);
        }
        if (lowNoveltyTicks < 1) throw new IllegalArgumentException("lowNoveltyTicks must be at least 1, was " + lowNoveltyTicks);
        if (noGrowthTicks < 0) throw new IllegalArgumentException("noGrowthTicks must be 0 (off) or more, was " + noGrowthTicks);
        if (noStimulusTicks < 0) {
            throw new IllegalArgumentException("noStimulusTicks must be 0 (off) or more, was " + noStimulusTicks);
        }
        if (overheatTicks < 2) throw new IllegalArgumentException("overheatTicks must be at least 2, was " + overheatTicks);
    }

    /** The threshold as the phrases print it: two decimals, a dot. */
    String thresholdText() {
        return String.format(Locale.ROOT, "%.2f", noveltyThreshold);
    }
}
