package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandRun;
import dev.hmpagent.context.SettingsBounds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ResponsesDao;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CleanupCommandsTest {
    @TempDir Path dir;
    CommandFixture f;
    NotesDao notes;
    ProcessLogDao log;
    ResponsesDao responses;

    @BeforeEach
    void open() {
        f = new CommandFixture(dir, new CommandOptions(10, SettingsBounds.DEFAULTS));
        notes = new NotesDao(f.store);
        log = new ProcessLogDao(f.store);
        responses = new ResponsesDao(f.store);
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void notes_cleanup_deletes_only_read_notes_older_than_the_floor() {
        long oldRead = notes.add("old, read", "user", 0, null);
        long oldUnread = notes.add("old, never read", "cli", 0, null);
        long recentRead = notes.add("recent, read", "user", 0, null);
        notes.markRead(List.of(oldRead), 5);
        notes.markRead(List.of(recentRead), 25);
        long sent = notes.addFromLlm("my old message", "m", 3);

        CommandRun run = f.one(30, "cleanup", "{\"table\": \"notes\", \"older_than_ticks\": 1}");

        assertThat(run.result()).isEqualTo("cleanup notes: 2 read notes deleted, of tick 20 or earlier (1 is below the "
                + "floor of 10 ticks agent.toml sets)");
        assertThat(notes.get(oldRead)).isEmpty();
        assertThat(notes.get(sent)).isEmpty();
        assertThat(notes.get(oldUnread)).as("unread: never").isPresent();
        assertThat(notes.get(recentRead)).as("newer than the floor").isPresent();
    }

    @Test
    void process_log_cleanup_deletes_only_closed_rows_older_than_asked_and_the_floor() {
        long closedOld = log.record(2, "diary_entry", "a", "{}", "ok", "ok", 0, null);
        long openOld = log.record(2, "memory_delete", "b", "{}", "error", "no", 0.5, "f");
        long closedMid = log.record(15, "help", "c", "{}", "ok", "ok", 0, null);
        long closedNew = log.record(28, "help", "d", "{}", "ok", "ok", 0, null);
        f.store.inTransaction(() -> {
            log.markSeen(List.of(closedOld, openOld, closedMid, closedNew), 29);
            log.closeOkSeenAtOrBefore(29);
        });

        CommandRun run = f.one(30, "cleanup", "{\"table\": \"process_log\", \"older_than_ticks\": 20}");

        assertThat(run.result()).isEqualTo("cleanup process_log: 1 closed process_log row deleted, of tick 10 or earlier");
        List<Long> left = java.util.stream.Stream.of(2, 15, 28).flatMap(t -> log.byTick(t).stream())
                .map(dev.hmpagent.store.ProcessRow::id).toList();
        assertThat(left).containsExactly(openOld, closedMid, closedNew);
    }

    @Test
    void reply_cleanup_respects_the_floor_and_older_than_days() {
        responses.add(1, "tick 1 reply", null, null, 1, 1, false, false, false, "m");
        f.clock.advance(Duration.ofDays(10));
        responses.add(2, "tick 2 reply", null, null, 1, 1, false, false, false, "m");
        responses.add(25, "recent reply", null, null, 1, 1, false, false, false, "m");

        CommandRun byDays = f.one(30, "cleanup", "{\"table\": \"llm_recent_responses\", \"older_than_days\": 5}");
        assertThat(byDays.result()).isEqualTo("cleanup llm_recent_responses: 1 reply deleted, of tick 20 or earlier and "
                + "older than 5 days");
        assertThat(responses.latest(10)).extracting(r -> r.content()).containsExactly("tick 2 reply", "recent reply");

        CommandRun byTicks = f.one(31, "cleanup", "{\"table\": \"llm_recent_responses\"}");
        assertThat(byTicks.result()).startsWith("cleanup llm_recent_responses: 1 reply deleted, of tick 21 or earlier");
        assertThat(responses.latest(5)).extracting(r -> r.content()).containsExactly("recent reply");
    }

    @Test
    void early_in_life_nothing_is_old_enough_and_other_tables_are_refused() {
        long read = notes.add("read", "user", 0, null);
        notes.markRead(List.of(read), 1);
        assertThat(f.one(5, "cleanup", "{\"table\": \"notes\"}").result())
                .isEqualTo("cleanup notes: 0 read notes deleted, of tick 0 or earlier");
        assertThat(notes.get(read)).isPresent();
        CommandRun refused = f.one(6, "cleanup", "{\"table\": \"safety_audit\"}");
        assertThat(refused.status()).isEqualTo("error");
        assertThat(refused.result()).contains("args.table must be one of llm_recent_responses, notes, process_log");
    }

    @Test
    void the_floor_defaults_to_100_ticks() throws java.io.IOException {
        try (CommandFixture defaults = new CommandFixture(java.nio.file.Files.createDirectories(dir.resolve("d")))) {
            assertThat(defaults.one(50, "cleanup", "{\"table\": \"notes\", \"older_than_ticks\": 1}").result())
                    .contains("below the floor of 100 ticks");
        }
    }
}
