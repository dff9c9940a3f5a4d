package dev.hmpagent.stagnation;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The signs of cognitive stagnation (HMP "Anti-Stagnation Reflex") as pure logic over the recent LLM ticks.
 *
 * <h2>The window</h2>
 * It starts at the newest observation with a person's message (inclusive): a new human message resets it and
 * everything older is ignored. With no person's message among {@code recent} the window is all of it, so the
 * caller passes at least as many ticks as the longest setting looks back on. A window of fewer than 2
 * observations is never stagnant.
 *
 * <h2>Signs</h2>
 * <ul>
 *   <li><b>lowNovelty</b> — the last {@code lowNoveltyTicks} of the window (it holds that many) all have novelty
 *       below the threshold;</li>
 *   <li><b>repeat</b> — the current reply is word for word the previous one or an earlier one
 *       ({@code repeatSign} on);</li>
 *   <li><b>noGrowth</b> — the window holds {@code noGrowthTicks} observations and none of the last that many
 *       created a concept or link ({@code noGrowthTicks > 0});</li>
 *   <li><b>noStimulus</b> — likewise: none of the last {@code noStimulusTicks} showed a new note, result or
 *       person's message. The tick that opens the window with a person's message is a stimulus, so this sign
 *       needs {@code noStimulusTicks} further ticks.</li>
 * </ul>
 * {@link Signs#stagnant()}: the thoughts repeat (lowNovelty or repeat), or nothing comes in and nothing is built
 * (noGrowth and noStimulus), even while the words vary. <b>overheated</b>: stagnant in a window of at least
 * {@code overheatTicks}.
 */
final class StagnationSigns {
    private StagnationSigns() {
    }

    /**
     * Which signs hold at the current tick.
     *
     * @param recent oldest first, ending with the current tick (tick ids strictly increasing)
     */
    public static Signs evaluate(List<TickObservation> recent, SignSettings s) {
        Objects.requireNonNull(recent, "recent");
        Objects.requireNonNull(s, "s");
        List<TickObservation> window = window(List.copyOf(recent));
        int n = window.size();
        if (n < 2) return Signs.quiet(n, s);
        TickObservation current = window.get(n - 1);
        boolean lowNovelty = n >= s.lowNoveltyTicks()
                && none(last(window, s.lowNoveltyTicks()), o -> o.novelty() >= s.noveltyThreshold());
        boolean repeat = s.repeatSign() && current.repeats();
        boolean noGrowth = lacks(window, s.noGrowthTicks(), TickObservation::growth);
        boolean noStimulus = lacks(window, s.noStimulusTicks(), TickObservation::anyStimulus);
        boolean overheated = Signs.stagnant(lowNovelty, repeat, noGrowth, noStimulus) && n >= s.overheatTicks();
        long repeated = repeat ? current.repeatOfTick() : 0;
        return new Signs(lowNovelty, repeat, noGrowth, noStimulus, overheated, n, repeated, s);
    }

    private static List<TickObservation> window(List<TickObservation> recent) {
        int start = -1;
        for (int i = recent.size() - 1; i >= 0; i--) {
            if (i > 0 && recent.get(i - 1).tickId() >= recent.get(i).tickId()) {
                throw new IllegalArgumentException("recent must be oldest first: tick " + recent.get(i - 1).tickId()
                        + " before tick " + recent.get(i).tickId());
            }
            if (start < 0 && recent.get(i).personMessage()) start = i;
        }
        return recent.subList(Math.max(start, 0), recent.size());
    }

    /** The last {@code ticks} of the window lack the thing (a setting of 0 is off; a shorter window never lacks). */
    private static boolean lacks(List<TickObservation> window, int ticks, Predicate<TickObservation> thing) {
        return ticks > 0 && window.size() >= ticks && none(last(window, ticks), thing);
    }

    private static List<TickObservation> last(List<TickObservation> window, int ticks) {
        return window.subList(window.size() - ticks, window.size());
    }

    private static boolean none(List<TickObservation> ticks, Predicate<TickObservation> p) {
        return ticks.stream().noneMatch(p);
    }

    /**
     * The signs at one tick.
     *
     * @param windowTicks  how many LLM ticks the window holds (since the last person's message, that one included)
     * @param repeatOfTick the earlier tick the current reply repeats when {@code repeat} holds; 0 when it is the
     *                     previous reply without a known tick, or no repeat
     * @param settings     the settings the signs were evaluated with (the phrases of {@link #describe()} name them)
     */
    public record Signs(boolean lowNovelty, boolean repeat, boolean noGrowth, boolean noStimulus, boolean overheated,
                        int windowTicks, long repeatOfTick, SignSettings settings) {
        public Signs {
            Objects.requireNonNull(settings, "settings");
            if (windowTicks < 0) throw new IllegalArgumentException("windowTicks must be 0 or more, was " + windowTicks);
            if (repeatOfTick < 0) throw new IllegalArgumentException("repeatOfTick must be 0 or more, was " + repeatOfTick);
            if (overheated && !stagnant(lowNovelty, repeat, noGrowth, noStimulus)) {
                throw new IllegalArgumentException("overheated needs a stagnant window");
            }
        }

        /** Signs built by hand (tests, diagnosis): the phrases use {@link SignSettings#DEFAULTS}. */
        public Signs(boolean lowNovelty, boolean repeat, boolean noGrowth, boolean noStimulus, boolean overheated,
                     int windowTicks) {
            this(lowNovelty, repeat, noGrowth, noStimulus, overheated, windowTicks, 0, SignSettings.DEFAULTS);
        }

        static Signs quiet(int windowTicks, SignSettings s) {
            return new Signs(false, false, false, false, false, windowTicks, 0, s);
        }

        /** The thoughts repeat, or nothing comes in and nothing is built. */
        public boolean stagnant() {
            return stagnant(lowNovelty, repeat, noGrowth, noStimulus);
        }

        private static boolean stagnant(boolean lowNovelty, boolean repeat, boolean noGrowth, boolean noStimulus) {
            return lowNovelty || repeat || (noGrowth && noStimulus);
        }

        /** One short phrase per sign that holds, in the order of the components. */
        public List<String> describe() {
            List<String> out = new ArrayList<>();
            if (lowNovelty) {
                out.add("novelty below " + settings.thresholdText() + " for " + ticks(settings.lowNoveltyTicks()));
            }
            if (repeat) {
                out.add(repeatOfTick > 0 ? "repeats tick " + repeatOfTick + " word for word"
                        : "repeats the previous reply word for word");
            }
            if (noGrowth) out.add("no new concept or link for " + ticks(settings.noGrowthTicks()));
            if (noStimulus) out.add("no new note or result for " + ticks(settings.noStimulusTicks()));
            if (overheated) out.add("a long run: " + ticks(windowTicks) + " since the last message");
            return List.copyOf(out);
        }

        private static String ticks(int n) {
            return n + (n == 1 ? " tick" : " ticks");
        }
    }
}
