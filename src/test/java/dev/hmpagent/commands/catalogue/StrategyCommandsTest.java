package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandRun;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class StrategyCommandsTest extends RegistryCommandsFixture {

    @Test
    void the_seeded_catalogues_are_listed_with_tags_and_reputation() {
        List<CommandRun> runs = run(1, "[{\"type\": \"strategies_list\"}, {\"type\": \"thinking_methods_list\"}]");
        assertThat(runs.get(0).result()).startsWith("stagnation strategies (id. name [tags] reputation):\n"
                + "1. Mesh request [external_stimulation,cheap] 0.0: Ask other agents of the mesh")
                .contains("\n2. Check the outside world [external_stimulation] 0.0 INACTIVE (needs the mesh or the"
                        + " outside world, which hmp-agent does not reach yet): ")
                .contains("\n9. Flashback [internal_restructuring,cheap] 0.0: ")
                .contains("\n15. Radical pause [radical_pause,costly] 0.0: ");
        assertThat(runs.get(1).result()).contains("\n1. Start with an analogy (idea generation) [micro-scenario] 0.0: "
                + "Find a problem this one resembles and borrow its solution.");
        assertThat(registry.find("strategies_list").orElseThrow().informs()).isTrue();
        assertThat(registry.find("thinking_methods_list").orElseThrow().informs()).isTrue();
        assertThat(registry.find("ratings_list").orElseThrow().informs()).isTrue();
        assertThat(registry.find("rating_add").orElseThrow().informs()).isFalse();
    }

    @Test
    void ratings_are_stored_signed_by_the_agent_and_move_the_reputation() {
        List<CommandRun> runs = run(1, """
                [{"type": "rating_add", "args": {"target_type": "stagnation_strategy", "target_id": 9, "rating": 1,
                   "comment": "found an old idea"}},
                 {"type": "rating_add", "args": {"target_type": "stagnation_strategy", "target_id": 9, "rating": 0}},
                 {"type": "rating_add", "args": {"target_type": "thinking_method", "target_id": 2, "rating": 5}},
                 {"type": "ratings_list", "args": {"target_type": "stagnation_strategy", "target_id": 9}}]""");

        assertThat(runs).extracting(CommandRun::status).containsOnly("ok");
        assertThat(runs.get(0).result()).isEqualTo("rated stagnation_strategy 9 \"Flashback\" +1; its reputation is now 1.0");
        assertThat(runs.get(1).result()).endsWith("its reputation is now 0.5");
        assertThat(runs.get(2).result()).isEqualTo("rated thinking_method 2 \"Check the converse\" 5/5; its reputation is now 5.0");
        assertThat(rows("SELECT agent_id, target_type, target_id, rating, comment, timestamp FROM ratings ORDER BY id"))
                .containsExactly(
                        List.of("self", "stagnation_strategy", 9, 1, "found an old idea", "2026-11-21T10:00:00Z"),
                        java.util.Arrays.asList("self", "stagnation_strategy", 9, 0, null, "2026-11-21T10:00:00Z"),
                        java.util.Arrays.asList("self", "thinking_method", 2, 5, null, "2026-11-21T10:00:00Z"));
        assertThat(value("SELECT reputation FROM stagnation_strategies WHERE id = 9")).isEqualTo(0.5);
        assertThat(runs.get(3).result()).isEqualTo("ratings (newest first):\n"
                + "- stagnation_strategy 9 \"Flashback\": 0 by self at 2026-11-21T10:00:00Z\n"
                + "- stagnation_strategy 9 \"Flashback\": +1 by self at 2026-11-21T10:00:00Z: found an old idea");
    }

    @Test
    void a_rating_of_nothing_or_out_of_range_is_refused() {
        List<CommandRun> runs = run(1, """
                [{"type": "rating_add", "args": {"target_type": "stagnation_strategy", "target_id": 99, "rating": 1}},
                 {"type": "rating_add", "args": {"target_type": "thinking_method", "target_id": 1, "rating": 9}},
                 {"type": "rating_add", "args": {"target_type": "stagnation_strategy", "target_id": 9, "rating": 4}},
                 {"type": "rating_add", "args": {"target_type": "diary", "target_id": 1, "rating": 3}}]""");
        assertThat(runs).extracting(CommandRun::status).containsOnly("error");
        assertThat(runs.get(0).result()).isEqualTo("rating_add: no stagnation_strategy with id 99; strategies_list shows the ids");
        assertThat(runs.get(1).result()).contains("args.rating of a thinking_method must be from 1 to 5");
        assertThat(runs.get(2).result()).contains("args.rating of a stagnation_strategy must be from -1 to +1");
        assertThat(runs.get(3).result()).contains("args.target_type must be stagnation_strategy or thinking_method");
        assertThat(count("SELECT count(*) FROM ratings")).isZero();
    }
}
