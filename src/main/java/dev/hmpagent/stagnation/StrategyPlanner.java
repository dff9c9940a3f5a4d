package dev.hmpagent.stagnation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Steps two and three of the HMP selection algorithm: from the diagnosed classes to the strategies to fire.
 * <ol>
 *   <li><b>Cheap first</b> — the highest cost allowed is {@code 1 + failedRounds}, at most {@link Strategy#COSTLY}:
 *       costly ways only after cheaper ones failed to end this episode.</li>
 *   <li>For each diagnosed class in order, at most one strategy of that class: available, not tried this episode,
 *       within the cost; the first in {@link #ORDER}. A class without one falls back to
 *       {@link StrategyClass#INTERNAL_RESTRUCTURING} for that slot (unless that class is chosen already).
 *       {@link StrategyClass#RADICAL_PAUSE} strategies come only from a diagnosed radical pause.</li>
 *   <li><b>Combine</b> — strategies of different classes only, at most {@code maxStrategies}, in the order chosen
 *       (which the caller records).</li>
 *   <li>When that finds nothing because every candidate was tried this episode, the same again with the tried ones
 *       allowed: a repeat of the best rather than nothing. An unavailable strategy is never chosen.</li>
 * </ol>
 */
final class StrategyPlanner {
    /** Cheapest first, then the best reputation (unrated counts as {@link Strategy#NEUTRAL_REPUTATION}), then lowest id. */
    public static final Comparator<Strategy> ORDER = Comparator.comparingInt(Strategy::cost)
            .thenComparing(Comparator.comparingDouble(Strategy::rankingReputation).reversed())
            .thenComparingLong(Strategy::id);

    private StrategyPlanner() {
    }

    /** The highest cost allowed after {@code failedRounds} firings that did not end the episode. */
    public static int allowedCost(int failedRounds) {
        if (failedRounds < 0) throw new IllegalArgumentException("failedRounds must be 0 or more, was " + failedRounds);
        return Math.min(Strategy.COSTLY, Strategy.CHEAP + failedRounds);
    }

    /**
     * The strategies to fire, in order; empty when nothing is diagnosed or nothing is available.
     *
     * @param diagnosis        the classes, most urgent first ({@link Diagnosis#diagnose})
     * @param catalogue        every known strategy, available or not
     * @param triedThisEpisode ids of the strategies already fired in this stagnation episode
     * @param failedRounds     how many earlier firings in this episode did not end it
     * @param maxStrategies    at most this many (2 suggested); 0 gives none
     */
    public static List<Strategy> plan(List<StrategyClass> diagnosis, List<Strategy> catalogue, Set<Long> triedThisEpisode,
                                      int failedRounds, int maxStrategies) {
        Objects.requireNonNull(diagnosis, "diagnosis");
        Objects.requireNonNull(catalogue, "catalogue");
        Objects.requireNonNull(triedThisEpisode, "triedThisEpisode");
        if (maxStrategies < 0) throw new IllegalArgumentException("maxStrategies must be 0 or more, was " + maxStrategies);
        int maxCost = allowedCost(failedRounds);
        List<StrategyClass> classes = List.copyOf(new LinkedHashSet<>(diagnosis));
        Predicate<Strategy> allowed = s -> s.available() && s.cost() <= maxCost;
        List<Strategy> fresh = choose(classes, catalogue, allowed.and(s -> !triedThisEpisode.contains(s.id())),
                maxStrategies);
        return fresh.isEmpty() ? choose(classes, catalogue, allowed, maxStrategies) : fresh;
    }

    private static List<Strategy> choose(List<StrategyClass> classes, List<Strategy> catalogue,
                                         Predicate<Strategy> candidate, int maxStrategies) {
        List<Strategy> chosen = new ArrayList<>();
        Set<StrategyClass> used = EnumSet.noneOf(StrategyClass.class);
        for (StrategyClass c : classes) {
            if (chosen.size() >= maxStrategies) break;
            if (used.contains(c)) continue;
            Optional<Strategy> pick = best(catalogue, c, candidate);
            if (pick.isEmpty() && !used.contains(StrategyClass.INTERNAL_RESTRUCTURING)) {
                pick = best(catalogue, StrategyClass.INTERNAL_RESTRUCTURING, candidate);
            }
            pick.ifPresent(s -> {
                chosen.add(s);
                used.add(s.strategyClass());
            });
        }
        return List.copyOf(chosen);
    }

    private static Optional<Strategy> best(List<Strategy> catalogue, StrategyClass c, Predicate<Strategy> candidate) {
        return catalogue.stream().filter(s -> s.strategyClass() == c).filter(candidate).min(ORDER);
    }
}
