package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** V006: the pins, note replies and evidence columns, and the indexes every per-tick query of them uses. */
class MemoryPinsMigrationTest {
    @TempDir Path dir;

    @Test
    void the_per_tick_queries_of_pins_and_open_goals_use_their_indexes() {
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-21T10:00:00Z"))) {
            for (String q : List.of(
                    "SELECT id FROM diary_entries WHERE pinned = 1 ORDER BY pinned_tick DESC, id DESC LIMIT 10",
                    "SELECT id FROM concepts WHERE pinned = 1 ORDER BY pinned_tick DESC, id DESC LIMIT 10",
                    "SELECT id FROM goals WHERE pinned = 1 ORDER BY pinned_tick, id LIMIT 20",
                    "SELECT id FROM tasks WHERE pinned = 1 ORDER BY pinned_tick, id LIMIT 20",
                    "SELECT id FROM goals WHERE pinned = 0 AND status NOT IN ('done', 'dropped') ORDER BY priority DESC, id LIMIT 20",
                    "SELECT id FROM tasks WHERE pinned = 0 AND status NOT IN ('done', 'dropped') ORDER BY priority DESC, id LIMIT 20")) {
                String plan = String.join("\n", store.query("EXPLAIN QUERY PLAN " + q, rs -> rs.getString(4)));
                assertThat(plan).as(q).contains("USING").doesNotContain("USE TEMP B-TREE");
            }
        }
    }

    @Test
    void pins_keep_the_tick_they_were_first_pinned_in() {
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-21T10:00:00Z"))) {
            DiaryDao diary = new DiaryDao(store);
            long a = diary.add("a", null, 0, "m");
            long b = diary.add("b", null, 0, "m");
            diary.pin(b, 3);
            diary.pin(a, 5);
            diary.pin(b, 7);
            assertThat(diary.pinned(10)).extracting(p -> p.row().text() + "@" + p.tick()).containsExactly("b@3", "a@5");
            assertThat(diary.pinned(1)).extracting(p -> p.row().text()).as("the most recent pins").containsExactly("a");
            diary.unpin(b);
            assertThat(diary.pinnedCount()).isEqualTo(1);
        }
    }
}
