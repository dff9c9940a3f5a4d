package dev.hmpagent.stagnation;

import static dev.hmpagent.stagnation.StrategyClass.CONTEXT_CHANGE;
import static dev.hmpagent.stagnation.StrategyClass.EXTERNAL_STIMULATION;
import static dev.hmpagent.stagnation.StrategyClass.INTERNAL_RESTRUCTURING;
import static dev.hmpagent.stagnation.StrategyClass.RADICAL_PAUSE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StrategyPlannerTest {
    static Strategy unrated(long id, StrategyClass c, int cost) {
        return new Strategy(id, "s" + id, c, cost, 0.0, false, true, Effect.NONE);
    }

    static Strategy rated(long id, StrategyClass c, int cost, double reputation) {
        return new Strategy(id, "s" + id, c, cost, reputation, true, true, Effect.NONE);
    }

    static Strategy unavailable(Strategy s) {
        return new Strategy(s.id(), s.name(), s.strategyClass(), s.cost(), s.reputation(), s.rated(), false, s.effect());
    }

    static List<Long> ids(List<Strategy> plan) {
        return plan.stream().map(Strategy::id).toList();
    }

    /** The catalogue V007 seeds, in its order (ids 1..15), unrated; cost from the tags: cheap 1, costly 3, else 2. */
    static final List<Strategy> SEEDED = List.of(
            new Strategy(1, "Mesh request", EXTERNAL_STIMULATION, 1, 0, false, true, Effect.NONE),
            new Strategy(2, "Check the outside world", EXTERNAL_STIMULATION, 2, 0, false, true, Effect.NONE),
            new Strategy(3, "Information feeding", EXTERNAL_STIMULATION, 2, 0, false, true, Effect.NONE),
            new Strategy(4, "Dialogue with the user", EXTERNAL_STIMULATION, 2, 0, false, true, Effect.ASK_PERSON),
            new Strategy(5, "Change of context", CONTEXT_CHANGE, 3, 0, false, true, Effect.CHANGE_CONTEXT),
            new Strategy(6, "Creative intervention", CONTEXT_CHANGE, 2, 0, false, true, Effect.CREATIVE_FRAME),
            new Strategy(7, "Task switch", CONTEXT_CHANGE, 2, 0, false, true, Effect.TASK_SWITCH),
            new Strategy(8, "Random iteration", CONTEXT_CHANGE, 2, 0, false, true, Effect.RANDOM_ACTION),
            new Strategy(9, "Flashback", INTERNAL_RESTRUCTURING, 1, 0, false, true, Effect.FLASHBACK),
            new Strategy(10, "Interest memory", INTERNAL_RESTRUCTURING, 2, 0, false, true, Effect.INTEREST_MEMORY),
            new Strategy(11, "Meta-analysis", INTERNAL_RESTRUCTURING, 2, 0, false, true, Effect.META_ANALYSIS),
            new Strategy(12, "Goal reformulation", INTERNAL_RESTRUCTURING, 2, 0, false, true, Effect.GOAL_REFORMULATION),
            new Strategy(13, "Switch LLM", INTERNAL_RESTRUCTURING, 2, 0, false, true, Effect.SWITCH_LLM),
            new Strategy(14, "LLM reflex tuning", INTERNAL_RESTRUCTURING, 2, 0, false, true, Effect.REFLEX_TUNING),
            new Strategy(15, "Radical pause", RADICAL_PAUSE, 3, 0, false, true, Effect.SLEEP));

    @Test
    void order_is_cost_then_reputation_with_unrated_as_neutral_then_id() {
        Strategy cheapGood = rated(20, INTERNAL_RESTRUCTURING, 1, 0.8);
        Strategy cheapUntried = unrated(12, INTERNAL_RESTRUCTURING, 1);
        Strategy cheapAverage = rated(15, INTERNAL_RESTRUCTURING, 1, 0.0);
        Strategy cheapPoor = rated(3, INTERNAL_RESTRUCTURING, 1, -1.0);
        Strategy cheapPoorLater = rated(4, INTERNAL_RESTRUCTURING, 1, -1.0);
        Strategy mediumExcellent = rated(1, INTERNAL_RESTRUCTURING, 2, 1.0);
        List<Strategy> shuffled = List.of(mediumExcellent, cheapPoorLater, cheapAverage, cheapPoor, cheapUntried, cheapGood);
        assertThat(shuffled.stream().sorted(StrategyPlanner.ORDER).map(Strategy::id).toList())
                .containsExactly(20L, 12L, 15L, 3L, 4L, 1L);
    }

    @Test
    void the_plan_picks_the_first_in_order_a_poorly_rated_one_below_an_untried_one() {
        List<Strategy> catalogue = List.of(rated(1, INTERNAL_RESTRUCTURING, 1, -1.0), unrated(2, INTERNAL_RESTRUCTURING, 1),
                rated(3, INTERNAL_RESTRUCTURING, 1, -0.1));
        assertThat(ids(StrategyPlanner.plan(List.of(INTERNAL_RESTRUCTURING), catalogue, Set.of(), 0, 2)))
                .containsExactly(2L);
        List<Strategy> withStar = List.of(catalogue.get(0), catalogue.get(1), rated(3, INTERNAL_RESTRUCTURING, 1, 1.0));
        assertThat(ids(StrategyPlanner.plan(List.of(INTERNAL_RESTRUCTURING), withStar, Set.of(), 0, 2)))
                .containsExactly(3L);
    }

    @Test
    void costly_ones_wait_until_cheaper_rounds_have_failed() {
        List<Strategy> catalogue = List.of(rated(1, CONTEXT_CHANGE, 3, 1.0), rated(2, CONTEXT_CHANGE, 2, 0.5));
        List<StrategyClass> context = List.of(CONTEXT_CHANGE);
        assertThat(StrategyPlanner.plan(context, catalogue, Set.of(), 0, 2)).as("first firing: cheap only").isEmpty();
        assertThat(ids(StrategyPlanner.plan(context, catalogue, Set.of(), 1, 2))).containsExactly(2L);
        assertThat(ids(StrategyPlanner.plan(context, catalogue, Set.of(2L), 1, 2)))
                .as("the medium one tried, the costly one still waits: it is repeated").containsExactly(2L);
        assertThat(ids(StrategyPlanner.plan(context, catalogue, Set.of(), 2, 2)))
                .as("allowed, but the cheaper one still comes first").containsExactly(2L);
        assertThat(ids(StrategyPlanner.plan(context, catalogue, Set.of(2L), 2, 2))).containsExactly(1L);
        assertThat(StrategyPlanner.allowedCost(0)).isEqualTo(1);
        assertThat(StrategyPlanner.allowedCost(7)).isEqualTo(3);
    }

    @Test
    void an_unavailable_strategy_is_never_chosen_even_when_all_were_tried() {
        Strategy best = unavailable(rated(1, INTERNAL_RESTRUCTURING, 1, 1.0));
        Strategy next = rated(2, INTERNAL_RESTRUCTURING, 1, -0.5);
        List<StrategyClass> internal = List.of(INTERNAL_RESTRUCTURING);
        assertThat(ids(StrategyPlanner.plan(internal, List.of(best, next), Set.of(), 0, 2))).containsExactly(2L);
        assertThat(ids(StrategyPlanner.plan(internal, List.of(best, next), Set.of(2L), 0, 2))).containsExactly(2L);
        assertThat(StrategyPlanner.plan(internal, List.of(best, unavailable(next)), Set.of(), 3, 2)).isEmpty();
    }

    @Test
    void strategies_tried_this_episode_give_way_to_untried_ones() {
        List<Strategy> catalogue = List.of(rated(1, EXTERNAL_STIMULATION, 1, 1.0), rated(2, EXTERNAL_STIMULATION, 1, -1.0));
        assertThat(ids(StrategyPlanner.plan(List.of(EXTERNAL_STIMULATION), catalogue, Set.of(1L), 0, 2)))
                .containsExactly(2L);
    }

    @Test
    void when_every_candidate_was_tried_the_best_tried_ones_come_again_rather_than_nothing() {
        List<Strategy> catalogue = List.of(rated(1, EXTERNAL_STIMULATION, 1, -0.5), rated(2, EXTERNAL_STIMULATION, 1, 0.5),
                rated(3, INTERNAL_RESTRUCTURING, 1, 0.5), rated(4, CONTEXT_CHANGE, 1, 0.0));
        assertThat(ids(StrategyPlanner.plan(List.of(EXTERNAL_STIMULATION, CONTEXT_CHANGE), catalogue,
                Set.of(1L, 2L, 3L, 4L), 0, 2))).containsExactly(2L, 4L);
    }

    @Test
    void one_strategy_per_class_combined_from_different_classes_up_to_the_maximum() {
        List<Strategy> catalogue = List.of(unrated(1, EXTERNAL_STIMULATION, 1), unrated(2, EXTERNAL_STIMULATION, 1),
                unrated(3, CONTEXT_CHANGE, 1), unrated(4, CONTEXT_CHANGE, 1),
                unrated(5, INTERNAL_RESTRUCTURING, 1), unrated(6, INTERNAL_RESTRUCTURING, 1));
        List<StrategyClass> all = List.of(EXTERNAL_STIMULATION, CONTEXT_CHANGE, INTERNAL_RESTRUCTURING);
        assertThat(ids(StrategyPlanner.plan(all, catalogue, Set.of(), 0, 2))).containsExactly(1L, 3L);
        assertThat(ids(StrategyPlanner.plan(all, catalogue, Set.of(), 0, 3))).containsExactly(1L, 3L, 5L);
        assertThat(ids(StrategyPlanner.plan(all, catalogue, Set.of(), 0, 5))).as("still one per class")
                .containsExactly(1L, 3L, 5L);
        assertThat(ids(StrategyPlanner.plan(List.of(CONTEXT_CHANGE, CONTEXT_CHANGE), catalogue, Set.of(), 0, 2)))
                .as("a class named twice is one slot").containsExactly(3L);
        assertThat(StrategyPlanner.plan(all, catalogue, Set.of(), 0, 0)).isEmpty();
        assertThat(StrategyPlanner.plan(List.of(), catalogue, Set.of(), 0, 2)).as("nothing diagnosed").isEmpty();
    }

    @Test
    void a_class_without_a_candidate_falls_back_to_internal_restructuring_once() {
        List<Strategy> catalogue = List.of(rated(1, EXTERNAL_STIMULATION, 2, 1.0), unrated(2, CONTEXT_CHANGE, 1),
                unrated(3, INTERNAL_RESTRUCTURING, 1), unrated(4, INTERNAL_RESTRUCTURING, 1));
        assertThat(ids(StrategyPlanner.plan(List.of(EXTERNAL_STIMULATION, CONTEXT_CHANGE), catalogue, Set.of(), 0, 2)))
                .as("no cheap external stimulation: internal restructuring takes its slot").containsExactly(3L, 2L);
        assertThat(ids(StrategyPlanner.plan(List.of(EXTERNAL_STIMULATION, INTERNAL_RESTRUCTURING), catalogue, Set.of(),
                0, 3))).as("not twice").containsExactly(3L);
        List<Strategy> noContext = List.of(rated(1, EXTERNAL_STIMULATION, 2, 1.0), unrated(3, INTERNAL_RESTRUCTURING, 1));
        assertThat(ids(StrategyPlanner.plan(List.of(EXTERNAL_STIMULATION, CONTEXT_CHANGE), noContext, Set.of(), 0, 2)))
                .as("two empty classes, one fallback").containsExactly(3L);
    }

    @Test
    void a_radical_pause_is_chosen_only_when_diagnosed() {
        Strategy sleep = rated(1, RADICAL_PAUSE, 1, 1.0);
        Strategy flashback = rated(2, INTERNAL_RESTRUCTURING, 1, -1.0);
        List<Strategy> catalogue = List.of(sleep, flashback);
        assertThat(ids(StrategyPlanner.plan(List.of(INTERNAL_RESTRUCTURING), catalogue, Set.of(2L), 3, 2)))
                .as("even with the only internal way tried").containsExactly(2L);
        assertThat(StrategyPlanner.plan(List.of(EXTERNAL_STIMULATION), List.of(sleep), Set.of(), 3, 2)).isEmpty();
        assertThat(ids(StrategyPlanner.plan(List.of(RADICAL_PAUSE, INTERNAL_RESTRUCTURING), catalogue, Set.of(), 0, 2)))
                .containsExactly(1L, 2L);
    }

    @Test
    void on_the_seeded_catalogue_cheap_ways_come_first_and_costlier_ones_as_rounds_fail() {
        List<StrategyClass> repeat = List.of(INTERNAL_RESTRUCTURING);
        assertThat(StrategyPlanner.plan(repeat, SEEDED, Set.of(), 0, 2)).extracting(Strategy::name)
                .containsExactly("Flashback");

        List<StrategyClass> idle = List.of(EXTERNAL_STIMULATION, CONTEXT_CHANGE);
        assertThat(StrategyPlanner.plan(idle, SEEDED, Set.of(), 0, 2)).extracting(Strategy::name)
                .as("no cheap context change: Flashback takes its slot").containsExactly("Mesh request", "Flashback");
        assertThat(StrategyPlanner.plan(idle, SEEDED, Set.of(1L, 9L), 1, 2)).extracting(Strategy::name)
                .containsExactly("Check the outside world", "Creative intervention");

        List<StrategyClass> overheated = List.of(RADICAL_PAUSE, EXTERNAL_STIMULATION, CONTEXT_CHANGE, INTERNAL_RESTRUCTURING);
        assertThat(StrategyPlanner.plan(overheated, SEEDED, Set.of(), 0, 2)).extracting(Strategy::name)
                .as("sleep is costly: not before cheaper ways failed").containsExactly("Flashback", "Mesh request");
        assertThat(StrategyPlanner.plan(overheated, SEEDED, Set.of(1L, 9L, 2L, 6L), 2, 2)).extracting(Strategy::name)
                .containsExactly("Radical pause", "Information feeding");
    }

    @Test
    void bad_arguments_are_refused() {
        assertThatThrownBy(() -> StrategyPlanner.plan(List.of(), SEEDED, Set.of(), -1, 2))
                .hasMessageContaining("failedRounds");
        assertThatThrownBy(() -> StrategyPlanner.plan(List.of(), SEEDED, Set.of(), 0, -1))
                .hasMessageContaining("maxStrategies");
        assertThatThrownBy(() -> new Strategy(1, "x", CONTEXT_CHANGE, 4, 0, false, true, Effect.NONE)).hasMessageContaining("cost");
    }
}
