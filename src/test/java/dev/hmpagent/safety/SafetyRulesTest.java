package dev.hmpagent.safety;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.safety.SafetyRules.Action;
import dev.hmpagent.safety.SafetyRules.Limits;
import dev.hmpagent.safety.SafetyRules.Operation;
import dev.hmpagent.safety.SafetyRules.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SafetyRulesTest {
    final ObjectMapper mapper = new ObjectMapper();
    SafetyRules rules = new SafetyRules(Limits.DEFAULTS);

    JsonNode json(String text) {
        try {
            return mapper.readTree(text);
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }

    String fp(String type, String args) {
        return Fingerprint.ofCommand(type, json(args));
    }

    final String readMissing = fp("file_read", "{\"path\": \"missing.txt\"}");

    /** Asks first, as the executor does; runs only when not refused. */
    Verdict run(String fingerprint, boolean failed, String progressKey) {
        Verdict before = rules.beforeCommand(fingerprint);
        if (before.action() != Action.NONE) return before;
        return rules.after(new Operation(SafetyRules.Kind.COMMAND, failed, fingerprint, progressKey));
    }

    Verdict fail(String fingerprint) {
        return run(fingerprint, true, null);
    }

    Verdict succeed(String fingerprint) {
        return run(fingerprint, false, null);
    }

    List<Action> actions(List<Verdict> verdicts) {
        return verdicts.stream().map(Verdict::action).toList();
    }

    // --- same-fingerprint streaks ---

    @Test
    void two_identical_failures_are_normal_pain() {
        assertThat(fail(readMissing)).isEqualTo(Verdict.none());
        assertThat(fail(readMissing)).isEqualTo(Verdict.none());
    }

    @Test
    void third_identical_failure_injects_exactly_one_alert_and_the_fourth_none() {
        fail(readMissing);
        fail(readMissing);
        Verdict third = fail(readMissing);
        assertThat(third).isEqualTo(new Verdict(Action.ALERT, "repeat",
                "SYSTEM ALERT: You are repeating a failed action. STOP and analyze why."));
        assertThat(fail(readMissing)).isEqualTo(Verdict.none());
    }

    @Test
    void key_order_does_not_change_the_fingerprint_so_reordered_args_continue_the_streak() {
        String ab = fp("shell", "{\"command\": \"make\", \"cwd\": \"/src\"}");
        String ba = fp("shell", "{\"cwd\": \"/src\", \"command\": \"make\"}");
        assertThat(ab).isEqualTo(ba);
        fail(ab);
        fail(ba);
        assertThat(fail(ab).action()).isEqualTo(Action.ALERT);
    }

    @Test
    void a_success_in_between_ends_the_streak_fail_fail_success_fail_gives_no_alert() {
        fail(readMissing);
        fail(readMissing);
        succeed(readMissing);
        assertThat(fail(readMissing)).isEqualTo(Verdict.none());
        assertThat(fail(readMissing)).isEqualTo(Verdict.none());
        assertThat(fail(readMissing).action()).isEqualTo(Action.ALERT);
    }

    @Test
    void other_operations_in_between_do_not_end_the_streak() {
        String other = fp("file_read", "{\"path\": \"other.txt\"}");
        fail(readMissing);
        succeed(other);
        rules.after(Operation.chant("bad block"));
        rules.newInput();
        fail(readMissing);
        assertThat(fail(readMissing).action()).isEqualTo(Action.ALERT);
    }

    @Test
    void the_fifth_identical_attempt_is_refused_before_it_runs_and_locks() {
        for (int i = 0; i < 4; i++) fail(readMissing);
        Verdict fifth = rules.beforeCommand(readMissing);
        assertThat(fifth.action()).isEqualTo(Action.LOCKOUT);
        assertThat(fifth.rule()).isEqualTo("repeat");
        assertThat(fifth.reason()).contains("failed 4 times");
    }

    @Test
    void asking_before_a_command_changes_nothing_when_it_is_allowed() {
        for (int i = 0; i < 3; i++) fail(readMissing);
        String before = rules.toJson();
        for (int i = 0; i < 10; i++) assertThat(rules.beforeCommand(readMissing)).isEqualTo(Verdict.none());
        assertThat(rules.toJson()).isEqualTo(before);
    }

    @Test
    void a_refused_attempt_counts_so_a_restart_after_the_refusal_still_refuses() {
        for (int i = 0; i < 4; i++) fail(readMissing);
        rules.beforeCommand(readMissing);
        SafetyRules restarted = SafetyRules.fromJson(Limits.DEFAULTS, rules.toJson());
        assertThat(restarted.beforeCommand(readMissing).reason()).contains("failed 5 times");
    }

    @Test
    void a_fifth_failure_reported_without_asking_first_still_locks() {
        for (int i = 0; i < 4; i++) fail(readMissing);
        assertThat(rules.after(Operation.commandFailed(readMissing, null)).action()).isEqualTo(Action.LOCKOUT);
    }

    // --- error cascade ---

    @Test
    void ten_different_failures_in_a_row_pause_and_the_halt_wins_over_alerts() {
        List<Verdict> verdicts = new ArrayList<>();
        for (int i = 0; i < 10; i++) verdicts.add(fail(fp("file_read", "{\"path\": \"f" + i + "\"}")));
        assertThat(actions(verdicts)).containsExactly(Action.NONE, Action.NONE, Action.NONE, Action.NONE,
                Action.NONE, Action.NONE, Action.NONE, Action.ERROR_PAUSE, Action.ERROR_PAUSE, Action.ERROR_PAUSE);
        assertThat(verdicts.get(7).rule()).isEqualTo("cascade");
    }

    @Test
    void a_cascade_of_one_repeated_failure_pauses_although_its_alert_is_due_too() {
        // the streak's lockout refuses the 5th, so interleave two fingerprints: the 8th failure is the 4th of one
        String a = fp("shell", "{\"command\": \"a\"}");
        String b = fp("shell", "{\"command\": \"b\"}");
        List<Verdict> verdicts = new ArrayList<>();
        for (int i = 0; i < 3; i++) verdicts.add(fail(fp("shell", "{\"command\": \"x" + i + "\"}")));
        verdicts.add(fail(a));
        verdicts.add(fail(b));
        verdicts.add(fail(a));
        verdicts.add(fail(b));
        verdicts.add(fail(a)); // 8th failure of the window, 3rd of a: alert and pause are both due
        assertThat(verdicts.get(7).action()).isEqualTo(Action.ERROR_PAUSE);
    }

    @Test
    void seven_failures_of_ten_do_not_pause() {
        List<Verdict> verdicts = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String f = fp("file_read", "{\"path\": \"f" + i + "\"}");
            verdicts.add(i % 3 == 1 ? succeed(f) : fail(f)); // S at 1, 4, 7: seven failures
        }
        assertThat(actions(verdicts)).doesNotContain(Action.ERROR_PAUSE, Action.LOCKOUT);
    }

    @Test
    void old_failures_leave_the_window() {
        for (int i = 0; i < 7; i++) fail(fp("file_read", "{\"path\": \"old" + i + "\"}"));
        // successes that are progress (a polled job's growing output), so the thrash rule stays out of it
        for (int i = 0; i < 10; i++) run(fp("shell", "{\"command\": \"tail job.log\"}"), false, "row " + i);
        List<Verdict> verdicts = new ArrayList<>();
        for (int i = 0; i < 7; i++) verdicts.add(fail(fp("file_read", "{\"path\": \"new" + i + "\"}")));
        assertThat(actions(verdicts)).containsOnly(Action.NONE);
        assertThat(fail(fp("file_read", "{\"path\": \"new7\"}")).action()).isEqualTo(Action.ERROR_PAUSE);
    }

    @Test
    void fatal_llm_failures_and_chants_enter_the_window() {
        for (int i = 0; i < 4; i++) rules.after(Operation.fatalLlm(Fingerprint.ofFailure("llm:http_401", "bad key")));
        // each chant the first of its task (a person's message in between), so the chant rule does not pause
        rules.after(Operation.chant("a"));
        rules.personMessage();
        rules.after(Operation.chant("b"));
        rules.personMessage();
        fail(readMissing);
        Verdict eighth = rules.after(Operation.chant("c"));
        assertThat(eighth.action()).isEqualTo(Action.ERROR_PAUSE);
        assertThat(eighth.rule()).isEqualTo("cascade");
    }

    @Test
    void transient_llm_failures_never_count_an_llm_down_for_twelve_retries_then_back_is_no_pause() {
        fail(fp("shell", "{\"command\": \"x\"}"));
        List<Verdict> verdicts = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            verdicts.add(rules.after(Operation.transientLlm(Fingerprint.ofFailure("llm:connect", "refused"))));
        }
        verdicts.add(succeed(fp("shell", "{\"command\": \"y\"}")));
        assertThat(actions(verdicts)).containsOnly(Action.NONE);
        assertThat(rules.toJson()).contains("\"window\":\"FS\"");
    }

    // --- chanting (a format slip never reaches these rules: issue 22) ---

    @Test
    void the_first_chant_of_a_task_alerts_naming_chanting_and_the_second_pauses_at_once() {
        Verdict first = rules.after(Operation.chant("x"));
        assertThat(first.action()).isEqualTo(Action.ALERT);
        assertThat(first.rule()).isEqualTo("chant");
        assertThat(first.reason()).contains("chanting").contains("repeating the same text")
                .doesNotContain("command block").doesNotContain("malformed");
        Verdict second = rules.after(Operation.chant("x"));
        assertThat(second.action()).isEqualTo(Action.ERROR_PAUSE);
        assertThat(second.rule()).isEqualTo("chant");
        assertThat(second.reason()).startsWith("chanting: this model repeats itself (2 replies in this task")
                .contains("try a larger model, /model NAME");
    }

    @Test
    void operations_and_new_input_between_chants_do_not_start_a_task_but_a_persons_message_does() {
        rules.after(Operation.chant("x"));
        succeed(readMissing);
        rules.newInput();
        assertThat(rules.after(Operation.chant("x")).action()).isEqualTo(Action.ERROR_PAUSE);

        rules = new SafetyRules(Limits.DEFAULTS);
        rules.after(Operation.chant("x"));
        rules.personMessage();
        assertThat(rules.after(Operation.chant("x")).action()).isEqualTo(Action.ALERT);
    }

    @Test
    void the_chants_of_a_task_survive_a_restart() {
        rules.after(Operation.chant("x"));
        rules = SafetyRules.fromJson(Limits.DEFAULTS, rules.toJson());
        assertThat(rules.after(Operation.chant("x")).action()).isEqualTo(Action.ERROR_PAUSE);
    }

    // --- the task ledger: states, not wording (issue 33) ---

    String state(String type, String args, String result, boolean failed) {
        return ResultState.of(type, json(args), result, failed);
    }

    @Test
    void five_messages_with_no_answer_and_nothing_done_between_them_rest_the_agent() {
        JsonNode args = json("{\"text\": \"hello, are you there?\"}");
        String fingerprint = Fingerprint.ofCommand("send_message", args);
        List<Verdict> verdicts = new ArrayList<>();
        for (int note = 31; note < 36; note++) {
            verdicts.add(run(fingerprint, false, state("send_message", "{}", "message delivered (note " + note + ")", false)));
        }
        assertThat(actions(verdicts)).containsExactly(Action.NONE, Action.NONE, Action.NONE, Action.NONE, Action.REST);
        assertThat(verdicts.get(4).rule()).isEqualTo("talk");
    }

    @Test
    void two_agents_answering_each_other_forever_is_talk_a_loop_that_rests_the_agent() {
        // issue 37: A asks B, B's answer comes back, A asks again, each a new conversation (no trace holds A twice):
        // every answer is different words, yet only talk; nothing was done in the world between the messages
        List<Verdict> verdicts = new ArrayList<>();
        for (int round = 1; round <= 5; round++) {
            String args = "{\"peer\": \"b\", \"text\": \"and what do you think of that, round " + round + "?\"}";
            verdicts.add(run(Fingerprint.ofCommand("peer_message", json(args)), false, state("peer_message", args,
                    "b answered (completed): I think round " + round + " was interesting; what about you?", false)));
        }
        assertThat(actions(verdicts)).containsExactly(Action.NONE, Action.NONE, Action.NONE, Action.NONE, Action.REST);
        assertThat(verdicts.get(4).rule()).isEqualTo("talk");
    }

    @Test
    void answering_ten_peers_a2a_tasks_in_a_row_is_the_work_they_asked_for_and_never_rests() {
        List<Verdict> verdicts = new ArrayList<>();
        for (int note = 1; note <= 10; note++) {
            String args = "{\"id\": " + note + ", \"text\": \"42\"}";
            verdicts.add(run(Fingerprint.ofCommand("note_reply", json(args)), false, state("note_reply", args,
                    "answer sent to peer loopback (A2A task 7f1c-" + note + "; note " + (100 + note) + ")", false)));
        }
        assertThat(actions(verdicts)).containsOnly(Action.NONE);
        assertThat(state("note_reply", "{}", "reply stored as note 4, answering note 2 from peer", false))
                .as("a reply to a peer that waits for nothing is still talk").isEqualTo(ResultState.TALK + "note_reply");
    }

    @Test
    void a_status_message_beside_real_progress_each_step_never_rests() {
        List<Verdict> verdicts = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
            verdicts.add(run(fp("shell", "{\"command\": \"./batch " + i + "\"}"), false,
                    state("shell", "{}", "exit 0 after 0.2 s\nbatch " + i + " done", false)));
            verdicts.add(run(fp("send_message", "{\"text\": \"batch " + i + "\"}"), false,
                    state("send_message", "{}", "message delivered (note " + i + ")", false)));
        }
        assertThat(actions(verdicts)).containsOnly(Action.NONE);
    }

    @Test
    void the_same_file_read_with_the_same_content_is_a_poll_hinted_at_the_third_and_never_locked_by_itself() {
        String args = "{\"path\": \"notes.md\"}";
        String key = state("file_read", args, "notes.md (17 bytes):\n# Notes\nnothing yet", false);
        List<Verdict> verdicts = new ArrayList<>();
        for (int i = 0; i < 5; i++) verdicts.add(run(fp("file_read", args), false, key));
        assertThat(actions(verdicts)).containsExactly(Action.NONE, Action.NONE, Action.HINT, Action.NONE, Action.NONE);
        assertThat(verdicts.get(2).reason()).contains("use idle with a wake condition");
    }

    @Test
    void the_same_command_with_a_changing_result_twenty_times_never_alerts() {
        String args = "{\"path\": \"build.log\"}";
        StringBuilder log = new StringBuilder("build started\n");
        List<Verdict> verdicts = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            rules.called();
            log.append("compiled module ").append((char) ('a' + i)).append('\n');
            verdicts.add(run(fp("file_read", args), false, state("file_read", args, "build.log (9 bytes):\n" + log, false)));
        }
        assertThat(actions(verdicts)).containsOnly(Action.NONE);
        assertThat(rules.beforeCall()).isEqualTo(Verdict.none());
    }

    @Test
    void the_state_ignores_the_wording_of_a_process_and_our_own_ids_but_not_what_the_world_printed() {
        String head2 = state("shell", "{\"command\": \"head -n 2 a.txt\"}", "exit 0 after 0.1 s\nline 1\nline 2", false);
        String head4 = state("shell", "{\"command\": \"head -n 4 a.txt\"}", "exit 0 after 0.3 s\nline 1\nline 2", false);
        String cat = state("shell", "{\"command\": \"cat a.txt\"}", "exit 0 after 0.1 s\nline 1\nline 2\nline 3", false);
        assertThat(head2).isEqualTo(head4).isNotEqualTo(cat);
        assertThat(state("process_list", "{}", "1 running: sleep 100 (pid 21032, 5 s, since 2026-11-29T03:12:22Z)", false))
                .isEqualTo(state("process_list", "{}", "1 running: sleep 100 (pid 21040, 17 s, since 2026-11-29T03:12:40Z)", false));
        assertThat(state("shell", "{\"command\": \"mkdir a\"}", "exit 0 after 0.0 s\n(no output)", false))
                .as("a silent process is known by its command").isNotEqualTo(
                        state("shell", "{\"command\": \"mkdir b\"}", "exit 0 after 0.0 s\n(no output)", false));
        assertThat(state("file_write", "{\"path\": \"g.txt\", \"content\": \"Hi\"}", "created g.txt (2 bytes)", false))
                .as("a write and a read of the same content are one state")
                .isEqualTo(state("file_read", "{\"path\": \"./g.txt\"}", "g.txt (2 bytes):\nHi", false));
        assertThat(state("idle", "{\"seconds\": 1}", "idle until 2026-11-29T03:12:22Z", false)).startsWith(ResultState.WAIT);
        assertThat(state("mcp.clock.now", "{}", "2026-11-29T10:00:00Z", false)).as("an MCP tool's times are the world's")
                .isNotEqualTo(state("mcp.clock.now", "{}", "2026-11-29T10:00:05Z", false));
    }

    @Test
    void a_build_fixed_step_by_step_fails_each_time_with_a_new_error_after_an_edit_and_is_never_stopped() {
        String build = fp("shell", "{\"command\": \"! grep -n BROKEN code.txt\"}");
        List<Verdict> verdicts = new ArrayList<>();
        for (int faults = 10; faults > 0; faults--) {
            rules.called();
            String code = "line\n".repeat(10 - faults) + "BROKEN\n".repeat(faults);
            verdicts.add(run(fp("file_write", "{\"path\": \"code.txt\", \"content\": \"" + faults + "\"}"), false,
                    state("file_write", "{\"path\": \"code.txt\", \"content\": \"" + code.replace("\n", "\\n")
                            + "\"}", "replaced code.txt (60 bytes)", false)));
            verdicts.add(run(build, true, state("shell", "{}", "exit 1 after 0.0 s\n" + (11 - faults) + ":BROKEN", true)));
        }
        assertThat(actions(verdicts)).containsOnly(Action.NONE);
    }

    @Test
    void the_same_error_again_after_a_cosmetic_edit_still_counts_and_locks_at_the_fifth() {
        String build = fp("shell", "{\"command\": \"make\"}");
        List<Verdict> verdicts = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            run(fp("file_write", "{\"path\": \"code.c\"}"), false,
                    state("file_write", "{\"path\": \"code.c\", \"content\": \"/* " + i + " */\"}", "replaced code.c (9 bytes)", false));
            verdicts.add(run(build, true, state("shell", "{}", "exit 2 after 0.4 s\ncode.c:3: error: x undeclared", true)));
        }
        assertThat(actions(verdicts)).containsExactly(Action.NONE, Action.NONE, Action.ALERT, Action.NONE,
                Action.LOCKOUT);
        assertThat(verdicts.get(4).rule()).isEqualTo("repeat");
    }

    @Test
    void undo_and_redo_of_a_file_is_a_cycle_alerted_at_three_rounds_and_locked_at_five() {
        List<Verdict> verdicts = new ArrayList<>();
        for (int reply = 0; reply < 10; reply++) {
            rules.called();
            String content = reply % 2 == 0 ? "Hi" : "Hello there, friend";
            String write = state("file_write", "{\"path\": \"greet.txt\", \"content\": \"" + content + "\"}",
                    "replaced greet.txt (" + content.length() + " bytes)", false);
            Verdict w = run(fp("file_write", "{\"content\": \"" + content + "\"}"), false, write);
            Verdict r = run(fp("file_read", "{\"path\": \"greet.txt\"}"), false,
                    state("file_read", "{}", "greet.txt (" + content.length() + " bytes):\n" + content, false));
            verdicts.add(w.action().compareTo(r.action()) >= 0 ? w : r);
        }
        assertThat(actions(verdicts)).containsExactly(Action.NONE, Action.NONE, Action.NONE, Action.NONE, Action.NONE,
                Action.ALERT, Action.NONE, Action.NONE, Action.NONE, Action.LOCKOUT);
        assertThat(verdicts.get(9).rule()).isEqualTo("cycle");
    }

    @Test
    void calls_without_progress_alert_at_ten_and_lock_at_twenty_and_polls_rest_instead_twice_as_long_each_time() {
        String key = state("file_read", "{}", "status.txt (8 bytes):\nrunning", false);
        List<Verdict> verdicts = new ArrayList<>();
        for (int call = 1; call <= 20; call++) {
            assertThat(rules.beforeCall()).as("call " + call).isEqualTo(Verdict.none());
            rules.called();
            verdicts.add(run(fp("file_read", "{\"path\": \"status.txt\"}"), false, key));
        }
        assertThat(verdicts.get(9)).extracting(Verdict::action, Verdict::rule).containsExactly(Action.ALERT,
                "no-progress");
        assertThat(actions(verdicts).stream().filter(a -> a == Action.ALERT)).hasSize(1);
        Verdict stop = rules.beforeCall();
        assertThat(stop).extracting(Verdict::action, Verdict::rule).containsExactly(Action.REST, "poll");
        assertThat(rules.pollRests()).isEqualTo(1);
        for (int call = 21; call <= 30; call++) {
            assertThat(rules.beforeCall().action()).as("call " + call).isEqualTo(Action.NONE);
            rules.called();
            run(fp("file_read", "{\"path\": \"status.txt\"}"), false, key);
        }
        assertThat(rules.beforeCall().action()).as("ten more polls after the rest").isEqualTo(Action.REST);
        assertThat(rules.pollRests()).isEqualTo(2);

        SafetyRules other = new SafetyRules(Limits.DEFAULTS);
        for (int call = 1; call <= 20; call++) {
            other.called();
            other.after(Operation.commandSucceeded("idle", ResultState.WAIT + "idle"));   // a timer each call
        }
        assertThat(other.beforeCall()).extracting(Verdict::action, Verdict::rule).as("not polls: a lockout")
                .containsExactly(Action.LOCKOUT, "no-progress");
    }

    @Test
    void new_input_between_repeats_starts_the_count_afresh() {
        List<Verdict> verdicts = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            rules.called();
            verdicts.add(run(readMissing, false, "same"));
            if (i % 2 == 1) rules.newInput();
        }
        assertThat(actions(verdicts)).containsOnly(Action.NONE);
        assertThat(rules.beforeCall()).isEqualTo(Verdict.none());
    }

    @Test
    void alternating_between_two_results_alerts_when_the_cycle_has_repeated_three_times() {
        List<Verdict> verdicts = new ArrayList<>();
        for (String key : List.of("v1", "v2", "v1", "v2", "v1", "v2")) verdicts.add(run(readMissing, false, key));
        assertThat(verdicts.get(5).action()).isEqualTo(Action.ALERT);
        assertThat(verdicts.get(5).rule()).isEqualTo("cycle");
    }

    @Test
    void a_three_step_cycle_alerts_at_its_third_repetition_and_locks_by_its_fifth() {
        List<Verdict> verdicts = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
            String key = List.of("A", "B", "C").get(i % 3);
            verdicts.add(rules.after(Operation.commandSucceeded("write-" + key, key)));
        }
        assertThat(verdicts.get(8)).extracting(Verdict::action, Verdict::rule).containsExactly(Action.ALERT, "cycle");
        assertThat(verdicts.get(13).action()).isEqualTo(Action.NONE);
        assertThat(verdicts.get(14)).extracting(Verdict::action, Verdict::rule).containsExactly(Action.LOCKOUT, "cycle");
    }

    @Test
    void the_same_result_with_another_in_between_is_not_a_run_f_f_s_f_of_one_command_never_alerts() {
        List<Verdict> verdicts = new ArrayList<>();
        verdicts.add(rules.after(Operation.commandFailed("d99", "fail")));
        verdicts.add(rules.after(Operation.commandFailed("d99", "fail")));
        verdicts.add(rules.after(Operation.commandSucceeded("d99", "ok")));
        verdicts.add(rules.after(Operation.commandFailed("d99", "fail")));
        assertThat(verdicts).extracting(Verdict::action).containsOnly(Action.NONE);
    }

    // --- resets ---

    @Test
    void a_person_message_ends_failure_streaks() {
        for (int i = 0; i < 4; i++) fail(readMissing);
        rules.personMessage();
        assertThat(rules.beforeCommand(readMissing)).isEqualTo(Verdict.none());
        assertThat(fail(readMissing)).isEqualTo(Verdict.none());
        assertThat(fail(readMissing)).isEqualTo(Verdict.none());
        assertThat(fail(readMissing).action()).isEqualTo(Action.ALERT);
    }

    @Test
    void a_person_message_starts_no_progress_detection_afresh() {
        run(readMissing, false, "same");
        run(readMissing, false, "same");
        rules.personMessage();
        assertThat(run(readMissing, false, "same")).isEqualTo(Verdict.none());
        assertThat(run(readMissing, false, "same")).isEqualTo(Verdict.none());
    }

    @Test
    void an_unlock_starts_everything_afresh() {
        for (int i = 0; i < 4; i++) fail(readMissing);
        for (int i = 0; i < 3; i++) fail(fp("shell", "{\"command\": \"x" + i + "\"}"));
        rules.after(Operation.chant("x"));
        rules.after(Operation.chant("x"));
        run(fp("shell", "{\"command\": \"date\"}"), false, "d1");
        rules.unlock();
        assertThat(rules.toJson()).isEqualTo(new SafetyRules(Limits.DEFAULTS).toJson());
        assertThat(rules.after(Operation.chant("x")).action()).as("the first chant of a new task")
                .isEqualTo(Action.ALERT);
        assertThat(rules.beforeCommand(readMissing)).isEqualTo(Verdict.none());
    }

    // --- persistence ---

    @Test
    void a_restart_mid_streak_neither_forgets_nor_double_counts() {
        List<Verdict> straight = new ArrayList<>();
        List<Verdict> restarted = new ArrayList<>();
        SafetyRules other = new SafetyRules(Limits.DEFAULTS);
        for (int i = 0; i < 6; i++) {
            straight.add(script(rules, i));
            restarted.add(script(other, i));
            other = SafetyRules.fromJson(Limits.DEFAULTS, other.toJson());
        }
        assertThat(restarted).isEqualTo(straight);
        assertThat(actions(straight)).contains(Action.ALERT, Action.LOCKOUT);
    }

    private Verdict script(SafetyRules r, int step) {
        Verdict before = r.beforeCommand(readMissing);
        if (before.action() != Action.NONE) return before;
        r.after(Operation.commandSucceeded("poll", "v" + step % 2));
        return r.after(Operation.commandFailed(readMissing, "enoent"));
    }

    @Test
    void json_round_trips_exactly_and_is_stable() {
        fail(readMissing);
        fail(fp("shell", "{\"command\": \"b\"}"));
        run(readMissing, false, "k1");
        run(fp("shell", "{\"command\": \"b\"}"), true, "k2");
        run(fp("shell", "{\"command\": \"c\"}"), false, "k3");
        rules.after(Operation.chant("x"));
        String text = rules.toJson();
        assertThat(text).contains("\"window\":\"FFSFSF\"").contains("\"ledger\":{\"seen\":[\"k1\",\"k2\",\"k3\"]");
        assertThat(SafetyRules.fromJson(Limits.DEFAULTS, text).toJson()).isEqualTo(text);
        assertThat(text).doesNotContain(" ", "\n");
    }

    @Test
    void empty_or_unreadable_json_gives_the_empty_state() {
        String empty = new SafetyRules(Limits.DEFAULTS).toJson();
        for (String text : new String[] {"{}", "", null, "not json", "[1,2]", "{\"streaks\":{\"a\":\"x\"}}",
                "{\"window\":\"FXS\"}"}) {
            assertThat(SafetyRules.fromJson(Limits.DEFAULTS, text).toJson()).as(String.valueOf(text)).isEqualTo(empty);
        }
    }
}
