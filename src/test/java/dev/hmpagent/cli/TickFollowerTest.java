package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.AgentLogDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.TickRecord;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code agent log --follow}: the loop, with a pause that lets a tick land instead of sleeping. */
class TickFollowerTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-21T10:00:00Z");

    static TickRecord tick(long id) {
        Instant at = Instant.parse("2026-11-21T10:00:00Z").plusSeconds(id);
        return new TickRecord(id, at, at.plusMillis(300), "thought", "new message", true, 10, 2, 0, 0, false, null);
    }

    @Test
    void a_tick_that_lands_while_following_is_shown_once_and_the_follow_ends_when_the_pause_says_so() {
        Path db = dir.resolve("agent.db");
        try (Store writer = Store.open(db, clock); Store reader = Store.openReadOnly(db, clock)) {
            AgentLogDao writes = new AgentLogDao(writer);
            writes.insert(tick(1));
            List<String> shown = new ArrayList<>();
            TickLines lines = new TickLines();
            int[] pauses = {0};
            TickFollower follower = new TickFollower(new AgentLogDao(reader), t -> shown.add(lines.line(t)), () -> {
                pauses[0]++;
                if (pauses[0] == 1) writer.inTransaction(() -> writes.insert(tick(2)));   // lands while we wait
                if (pauses[0] == 2) {
                    writes.insert(tick(3));
                    writes.insert(tick(4));
                }
                return pauses[0] < 3;
            });

            long last = follower.follow(1);

            assertThat(last).isEqualTo(4);
            assertThat(shown).hasSize(3);
            assertThat(shown.get(0)).startsWith("tick 2  2026-11-21T10:00:02Z  thought  new message  10+2 tokens  no commands");
            assertThat(shown.get(1)).startsWith("tick 3  ");
            assertThat(shown.get(2)).startsWith("tick 4  ");
        }
    }

    @Test
    void more_ticks_than_one_page_are_all_shown_before_the_next_pause() {
        Path db = dir.resolve("agent.db");
        try (Store writer = Store.open(db, clock); Store reader = Store.openReadOnly(db, clock)) {
            AgentLogDao writes = new AgentLogDao(writer);
            writer.inTransaction(() -> {
                for (long id = 1; id <= TickFollower.PAGE * 2 + 5; id++) writes.insert(tick(id));
            });
            List<Long> shown = new ArrayList<>();

            new TickFollower(new AgentLogDao(reader), t -> shown.add(t.tick().tickId()), () -> false).follow(0);

            assertThat(shown).hasSize(TickFollower.PAGE * 2 + 5).isSorted().doesNotHaveDuplicates();
        }
    }
}
