package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.LlmCall.Outcome;
import dev.hmpagent.store.LlmCall.Purpose;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recorded tasks of a file: a person's message (the tick that read it) or an unlock starts one. */
class RecordedTasksTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    Store store;
    RecordedTasks tasks;

    @BeforeEach
    void open() {
        store = Store.open(dir.resolve("agent.db"), clock);
        tasks = new RecordedTasks(store);
    }

    @AfterEach
    void close() {
        store.close();
    }

    private void call(long tick, Purpose purpose, Outcome outcome) {
        store.tables().llmCalls().insert(tick, new LlmCall(purpose, Instant.parse("2026-11-29T10:00:00Z")
                .plusSeconds(tick), "m", "https://api.example.com/v1", 100, 0, 10, false, 5, outcome,
                outcome == Outcome.ERROR ? "timeout" : ""));
    }

    private void personNote(String text, String source, long readAt) {
        long id = store.tables().notes().add(text, source, 0, null);
        store.tables().notes().markRead(List.of(id), readAt);
    }

    private List<List<Long>> ticks() {
        return tasks.tasks().stream().map(t -> t.stream().map(RecordedTasks.Call::tickId).toList()).toList();
    }

    @Test
    void a_run_with_no_person_is_one_task_of_its_answered_main_calls() {
        call(1, Purpose.MAIN, Outcome.OK);
        call(1, Purpose.COMPARISON, Outcome.OK);
        call(2, Purpose.MAIN, Outcome.ERROR);   // a failed call is no step
        call(3, Purpose.MAIN, Outcome.OK);

        assertThat(ticks()).containsExactly(List.of(1L, 3L));
    }

    @Test
    void each_message_of_a_person_or_the_cli_and_each_unlock_starts_a_task_the_llms_own_notes_do_not() {
        personNote("first task", "user", 1);
        for (long t = 1; t <= 6; t++) call(t, Purpose.MAIN, Outcome.OK);
        store.tables().notes().addFromLlm("a note of my own", "m", 2);
        personNote("second task", "cli", 3);
        // an unlock between the calls of ticks 4 and 5 (sent at 10:00:04 and 10:00:05)
        store.tables().safety().audit(new SafetyDao.Audit(Instant.parse("2026-11-29T10:00:04.500Z"), "unlock",
                "SAFETY_LOCKOUT", "ACTIVE", null, "", 1, "me", "host"));

        assertThat(ticks()).containsExactly(List.of(1L, 2L), List.of(3L, 4L), List.of(5L, 6L));
        assertThat(tasks.personNotes(2, 3)).extracting(RecordedTasks.PersonNote::text).containsExactly("second task");
        assertThat(tasks.personNotes(4, 5)).isEmpty();
    }
}
