package dev.hmpagent.stagnation;

import dev.hmpagent.stagnation.StagnationSigns.Signs;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Step one of the HMP selection algorithm: from the signs to the classes of ways out, most urgent first.
 * <ul>
 *   <li>overheated → {@link StrategyClass#RADICAL_PAUSE}, first;</li>
 *   <li>no stimulus (no new data) → {@link StrategyClass#EXTERNAL_STIMULATION};</li>
 *   <li>no growth (a monotonous context) → {@link StrategyClass#CONTEXT_CHANGE};</li>
 *   <li>low novelty or a repeat (repeated thoughts) → {@link StrategyClass#INTERNAL_RESTRUCTURING}: the answer
 *       when data is rich, and after external stimulation when it is not (the cheap internal ways still apply).</li>
 * </ul>
 */
final class Diagnosis {
    private Diagnosis() {
    }

    /** The classes, ordered, without duplicates; empty when the signs are not stagnant. */
    public static List<StrategyClass> diagnose(Signs s) {
        Objects.requireNonNull(s, "s");
        if (!s.stagnant()) return List.of();
        List<StrategyClass> out = new ArrayList<>();
        if (s.overheated()) out.add(StrategyClass.RADICAL_PAUSE);
        if (s.noStimulus()) out.add(StrategyClass.EXTERNAL_STIMULATION);
        if (s.noGrowth()) out.add(StrategyClass.CONTEXT_CHANGE);
        if (s.lowNovelty() || s.repeat()) out.add(StrategyClass.INTERNAL_RESTRUCTURING);
        return List.copyOf(out);
    }
}
