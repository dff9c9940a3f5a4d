package dev.hmpagent.safety;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The task ledger on plain keys: what is progress, the runs of equal states, the cycles, and a restart mid-run. */
class TaskLedgerTest {
    final TaskLedger ledger = new TaskLedger();

    int[] enterAll(String... keys) {
        for (String k : keys) ledger.enter(k, false);
        return ledger.cycle();
    }

    @Test
    void only_a_success_reaching_a_state_the_task_has_not_seen_is_progress() {
        assertThat(ledger.enter("a", false)).isTrue();
        assertThat(ledger.enter("a", false)).as("seen").isFalse();
        assertThat(ledger.enter("fail-x", true)).as("a failure, new or not").isFalse();
        assertThat(ledger.enter("fail-x", false)).as("a key a failure reached is seen").isFalse();
        assertThat(ledger.enter(ResultState.TALK + "send_message", false)).as("a message is no state").isFalse();
        assertThat(ledger.enter(ResultState.WAIT + "idle", false)).as("a timer is no state").isFalse();
        assertThat(ledger.enter(ResultState.OWN + "diary_entry", false)).as("a note to itself").isFalse();
        assertThat(ledger.mark()).isEqualTo(1);
        ledger.clear();
        assertThat(ledger.enter("a", false)).as("a new task has seen nothing").isTrue();
    }

    @Test
    void cycles_are_found_for_periods_two_to_eight_over_states_with_repeats_in_a_row_collapsed() {
        assertThat(enterAll("a", "b", "a", "b", "a", "b")).containsExactly(6, 2);
        ledger.clear();
        assertThat(enterAll("w1", "w1", "w2", "w2", "w1", "w1", "w2")).as("a write and its read-back collapse")
                .containsExactly(4, 2);
        ledger.clear();
        assertThat(enterAll("a", "b", "c", "d", "e", "f", "g", "h", "a", "b", "c", "d", "e", "f", "g", "h"))
                .containsExactly(16, 8);
        ledger.clear();
        assertThat(enterAll("a", "b", "c", "d", "e", "f", "g", "h", "i", "a", "b", "c", "d", "e", "f", "g", "h", "i"))
                .as("a period of 9 is past the longest looked for").containsExactly(0, 0);
        ledger.clear();
        assertThat(enterAll("a", "b", "a", "c", "a", "b")).as("a new state in between breaks it").containsExactly(0, 0);
    }

    @Test
    void equal_states_in_a_row_are_counted_and_another_state_starts_the_count_again() {
        enterAll("poll", "poll", "poll");
        assertThat(ledger.same()).isEqualTo(3);
        ledger.enter("other", false);
        assertThat(ledger.same()).isEqualTo(1);
        assertThat(ledger.grew()).isTrue();
        ledger.enter("other", false);
        assertThat(ledger.grew()).as("a repeat in a row adds nothing to the recent states").isFalse();
    }

    @Test
    void the_calls_since_progress_count_the_call_that_made_it_and_restart_at_progress_or_news() {
        ledger.called();
        ledger.enter("a", false);
        assertThat(ledger.sinceProgress()).as("the call that made progress is the first of the run").isEqualTo(1);
        for (int i = 0; i < 9; i++) ledger.called();
        assertThat(ledger.alertCalls(10)).isTrue();
        assertThat(ledger.alertCalls(10)).as("once a run").isFalse();
        ledger.newInput();
        assertThat(ledger.sinceProgress()).isZero();
        assertThat(ledger.alertCalls(10)).isFalse();
    }

    @Test
    void a_restart_mid_cycle_keeps_every_count() throws Exception {
        enterAll("a", "b", "a", "b", "a");
        ledger.called();
        ledger.talked();
        ObjectNode json = new ObjectMapper().createObjectNode();
        ledger.write(json, true);
        TaskLedger again = new TaskLedger();
        again.read(new ObjectMapper().readTree(json.toString()));

        ledger.enter("b", false);
        again.enter("b", false);
        assertThat(again.cycle()).containsExactly(ledger.cycle()).containsExactly(6, 2);
        assertThat(again.sinceProgress()).isEqualTo(ledger.sinceProgress());
        assertThat(again.talked()).isEqualTo(2);
        assertThat(again.seen("a")).isTrue();
        assertThat(again.mark()).isEqualTo(ledger.mark());
    }

    @Test
    void the_oldest_states_are_forgotten_past_the_cap() {
        for (int i = 0; i <= TaskLedger.REMEMBERED; i++) ledger.enter("s" + i, false);
        assertThat(ledger.seen("s0")).isFalse();
        assertThat(ledger.seen("s1")).isTrue();
        assertThat(ledger.enter("s0", false)).as("forgotten, so new again").isTrue();
        assertThat(List.of(ledger.mark())).containsExactly(TaskLedger.REMEMBERED + 2);
    }

    @Test
    void what_changed_in_the_states_since_the_last_store_is_told_once_in_order() {
        assertThat(ledger.changes()).isSameAs(TaskLedger.Changes.NONE);
        ledger.enter("a", false);
        ledger.enter("b", true);
        ledger.enter("a", false);
        assertThat(ledger.changes()).isEqualTo(new TaskLedger.Changes(false, List.of("a", "b"), 0));
        assertThat(ledger.changes()).as("told once").isSameAs(TaskLedger.Changes.NONE);

        ledger.clear();
        ledger.enter("c", false);
        assertThat(ledger.changes()).as("a new task").isEqualTo(new TaskLedger.Changes(true, List.of("c"), 0));

        for (int i = 0; i < TaskLedger.REMEMBERED; i++) ledger.enter("s" + i, false);
        TaskLedger.Changes past = ledger.changes();
        assertThat(past.added()).hasSize(TaskLedger.REMEMBERED);
        assertThat(past.forgotten()).as("c, the oldest, went").isEqualTo(1);
        assertThat(ledger.seen("c")).isFalse();
    }

    /** The states as {@code l} writes them, read back. */
    private static List<String> written(TaskLedger l) throws Exception {
        ObjectNode json = new ObjectMapper().createObjectNode();
        l.write(json, true);
        List<String> out = new java.util.ArrayList<>();
        new ObjectMapper().readTree(json.toString()).path("ledger").path("seen").forEach(s -> out.add(s.asText()));
        return out;
    }

    @Test
    void the_states_written_as_they_come_are_the_states_seen_whatever_happened_in_between() throws Exception {
        String odd = "file \"a\\b\"\n\u0001 é ☃";
        ledger.enter("first", false);
        assertThat(written(ledger)).containsExactly("first");
        ledger.enter(odd, false);
        ledger.enter("first", false);
        ledger.enter("fail", true);
        assertThat(written(ledger)).as("appended after a write").containsExactly("first", odd, "fail");

        TaskLedger again = new TaskLedger();
        ObjectNode json = new ObjectMapper().createObjectNode();
        ledger.write(json, true);
        again.read(new ObjectMapper().readTree(json.toString()));
        again.enter("after a restart", false);
        assertThat(written(again)).containsExactly("first", odd, "fail", "after a restart");

        ledger.clear();
        ledger.enter("new task", false);
        assertThat(written(ledger)).as("a new task").containsExactly("new task");
        for (int i = 0; i < TaskLedger.REMEMBERED; i++) ledger.enter("s" + i, false);
        List<String> capped = written(ledger);
        assertThat(capped).as("the oldest forgotten").hasSize(TaskLedger.REMEMBERED).startsWith("s0")
                .doesNotContain("new task");
        ledger.enter("one more", false);
        assertThat(written(ledger)).hasSize(TaskLedger.REMEMBERED).startsWith("s1").endsWith("one more");
    }
}
