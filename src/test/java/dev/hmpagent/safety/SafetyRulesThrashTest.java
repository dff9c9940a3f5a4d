package dev.hmpagent.safety;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.safety.SafetyRules.Action;
import dev.hmpagent.safety.SafetyRules.Limits;
import dev.hmpagent.safety.SafetyRules.Operation;
import dev.hmpagent.safety.SafetyRules.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 23's thrash rule: half of the commands failing, every one new, nothing moving on, is stopped within 20 calls
 * (alerted first); the healthy scenarios of the suite, as the monitor would feed them, get no alert and no
 * pause. Fingerprints and progress keys are computed as the executor computes them.
 */
class SafetyRulesThrashTest {
    static final ObjectMapper JSON = new ObjectMapper();
    SafetyRules rules = new SafetyRules(Limits.DEFAULTS);
    final List<Verdict> verdicts = new ArrayList<>();

    static JsonNode args(String json) {
        try {
            return JSON.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }

    /** One command as the executor reports it: asked first, then its outcome with its result. */
    void command(String type, String argsJson, boolean failed, String result) {
        JsonNode a = args(argsJson);
        String fingerprint = Fingerprint.ofCommand(type, a);
        Verdict before = rules.beforeCommand(fingerprint);
        if (before.action() != Action.NONE) {
            verdicts.add(before);
            return;
        }
        verdicts.add(rules.after(new Operation(SafetyRules.Kind.COMMAND, failed, fingerprint,
                ResultState.of(type, a, result, failed))));
    }

    List<Action> actions() {
        return verdicts.stream().map(Verdict::action).toList();
    }

    /** Tick {@code i} of the thrash: a new failing command beside a new diary entry (a success that moves nothing). */
    void thrashTick(int i) {
        command("memory_delete", "{\"id\": " + (500 + i) + "}", true, "no memory entry with id " + (500 + i));
        command("diary_entry", "{\"text\": \"tried " + i + "\"}", false, "diary entry " + (40 + i) + " saved");
    }

    // --- the thrash ---

    @Test
    void one_new_failure_beside_one_new_success_each_tick_alerts_at_the_fifth_tick_and_pauses_at_the_tenth() {
        int pausedAt = 0;
        for (int tick = 1; tick <= 20 && pausedAt == 0; tick++) {
            thrashTick(tick);
            if (actions().contains(Action.ERROR_PAUSE)) pausedAt = tick;
        }
        assertThat(pausedAt).as("ticks (LLM calls) until the pause").isEqualTo(10);
        assertThat(actions().indexOf(Action.ALERT)).as("the alert, at the 10th command").isEqualTo(9);
        assertThat(actions().stream().filter(a -> a == Action.ALERT).count()).as("one alert per run").isEqualTo(1);
        Verdict alert = verdicts.get(9);
        assertThat(alert.rule()).isEqualTo(SafetyRules.RULE_THRASH);
        assertThat(alert.reason()).startsWith("SYSTEM ALERT: You are thrashing: 5 of your last 10 commands failed");
        Verdict pause = verdicts.get(verdicts.size() - 1);
        assertThat(pause.rule()).isEqualTo(SafetyRules.RULE_THRASH);
        assertThat(pause.reason()).startsWith("thrashing: 10 of the last 20 commands failed");
        assertThat(actions().subList(0, 19)).doesNotContain(Action.ERROR_PAUSE, Action.LOCKOUT);
    }

    @Test
    void the_same_read_beside_each_new_failure_moves_nothing_either() {
        for (int i = 0; i < 11; i++) {
            command("file_read", "{\"path\": \"README\"}", false, "README (5 bytes):\nhello");
            command("memory_delete", "{\"id\": " + (900 + i) + "}", true, "no memory entry with id " + (900 + i));
        }
        assertThat(actions()).contains(Action.ALERT);
        assertThat(verdicts.get(19).action()).as("the first read was progress: the run begins after it")
                .isNotEqualTo(Action.ERROR_PAUSE);
        assertThat(verdicts.get(20).action()).isEqualTo(Action.ERROR_PAUSE);
    }

    @Test
    void a_result_that_changed_is_progress_and_ends_the_run() {
        for (int i = 0; i < 30; i++) {
            command("memory_delete", "{\"id\": " + (500 + i) + "}", true, "no memory entry with id " + (500 + i));
            // the same job polled: its output grows, so every poll after the first is progress
            command("shell", "{\"command\": \"tail -1 job.log\"}", false, "exit 0 after 0.1 s\nrow " + (i * 100));
        }
        assertThat(actions()).containsOnly(Action.NONE);
    }

    @Test
    void new_input_and_a_persons_message_end_the_run_and_a_restart_does_not() {
        for (int i = 0; i < 9; i++) thrashTick(i);   // 18 commands, 9 failures, alerted at the 10th
        rules = SafetyRules.fromJson(Limits.DEFAULTS, rules.toJson());
        thrashTick(9);
        assertThat(verdicts.get(19).action()).as("the 20th command, after a restart").isEqualTo(Action.ERROR_PAUSE);

        rules = new SafetyRules(Limits.DEFAULTS);
        verdicts.clear();
        for (int i = 0; i < 30; i++) {
            if (i % 4 == 0) rules.newInput();
            thrashTick(i);
        }
        assertThat(actions()).as("new input every 4th tick").doesNotContain(Action.ERROR_PAUSE);
    }

    // --- healthy scenarios of the suite: no alert, no pause ---

    @Test
    void thirty_polls_of_a_growing_job() {
        command("shell", "{\"command\": \"./job.sh &\"}", false, "started (process 4242)");
        for (int i = 1; i <= 30; i++) {
            command("shell", "{\"command\": \"cat job.out\"}", false, "exit 0 after 0.0 s\n" + "line\n".repeat(i));
        }
        assertThat(actions()).containsOnly(Action.NONE);
    }

    @Test
    void twenty_terse_edits_of_a_file_with_new_content() {
        for (int i = 1; i <= 20; i++) {
            command("file_write", "{\"path\": \"draft.txt\", \"content\": \"draft " + i + "\"}", false,
                    "wrote 7 bytes to draft.txt");
            command("file_read", "{\"path\": \"draft.txt\"}", false, "draft " + i);
        }
        assertThat(actions()).containsOnly(Action.NONE);
    }

    @Test
    void fifteen_different_questions() {
        for (int i = 1; i <= 15; i++) {
            rules.personMessage();
            command("send_message", "{\"text\": \"answer " + i + "\"}", false, "message delivered (note " + i + ")");
        }
        assertThat(actions()).containsOnly(Action.NONE);
    }

    @Test
    void a_503_on_every_third_request_during_a_task() {
        for (int i = 1; i <= 30; i++) {
            if (i % 3 == 0) {
                verdicts.add(rules.after(Operation.transientLlm(Fingerprint.ofFailure("llm:http_503", "unavailable"))));
            }
            command("diary_search", "{\"query\": \"step " + i + "\"}", false, "found " + i + " entries");
        }
        assertThat(actions()).containsOnly(Action.NONE);
    }

    @Test
    void date_six_times() {
        for (int i = 0; i < 6; i++) {
            command("shell", "{\"command\": \"date\"}", false, "exit 0 after 0.0 s\nFri Nov 27 09:0" + i + ":00 UTC 2026");
        }
        assertThat(actions()).containsOnly(Action.NONE);
    }

    @Test
    void a_forty_step_task_whose_every_step_succeeds_with_a_new_result() {
        for (int i = 1; i <= 40; i++) {
            command("shell", "{\"command\": \"./step.sh " + i + "\"}", false, "exit 0 after 0.2 s\nstep " + i + " done");
        }
        assertThat(actions()).containsOnly(Action.NONE);
    }
}
