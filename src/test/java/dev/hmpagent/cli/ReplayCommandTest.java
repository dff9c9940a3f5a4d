package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code agent replay TRACE} on hand-written traces: the real rules' verdicts, step by step, and what --set changes. */
class ReplayCommandTest {
    @TempDir
    Path dir;

    /** A reply that reads settings.cfg, which is not there. */
    static String failingRead(int step) {
        return "{\"step\": " + step + ", \"reply\": \"Reading settings.cfg (try " + step + ").\", \"tokens\": {\"prompt\":"
                + " 4600, \"cached\": 4000, \"completion\": 50}, \"commands\": [{\"type\": \"file_read\", \"args\":"
                + " {\"path\": \"settings.cfg\"}, \"status\": \"error\", \"code\": \"ENOENT\", \"output\":"
                + " \"no such file: settings.cfg\"}]}";
    }

    private Path trace(List<String> lines) throws IOException {
        return Files.write(dir.resolve("task.jsonl"), lines);
    }

    private static List<String> failingReads(int steps) {
        List<String> lines = new ArrayList<>(List.of("{\"trace\": \"hmp-agent\", \"version\": 1}",
                "{\"person\": \"Find the port in settings.cfg.\"}"));
        IntStream.rangeClosed(1, steps).forEach(n -> lines.add(failingRead(n)));
        return lines;
    }

    private CliRun replay(Path trace, String... more) throws IOException {
        Path config = Files.writeString(dir.resolve("agent.toml"), "");
        List<String> args = new ArrayList<>(List.of("replay", "--config", config.toString()));
        args.addAll(List.of(more));
        args.add(trace.toString());
        return CliRun.agent(Map.of("HOME", dir.toString()), cl -> { }, args.toArray(String[]::new));
    }

    @Test
    void a_repeated_failing_command_alerts_at_step_3_and_locks_at_step_5_with_the_default_config() throws IOException {
        CliRun run = replay(trace(failingReads(7)));

        assertThat(run.err()).isEmpty();
        List<String> out = run.out().lines().toList();
        assertThat(out.get(0)).isEqualTo("step 3: alert (file_read): " + dev.hmpagent.safety.SafetyRules.REPEAT_ALERT);
        // the reason in the monitor's words: the rule, the command and its last error, and what releases it
        assertThat(out.get(1)).startsWith("step 5: SAFETY_LOCKOUT: the same command failed 4 times in a row;")
                .contains("the command: file_read settings.cfg; its last"
                        + " error: ENOENT: no such file: settings.cfg").endsWith("a person must run agent unlock");
        // steps 6 and 7 are never reached: a lockout waits for a person
        assertThat(out.get(out.size() - 1)).isEqualTo("replay: 5 steps; first alert at step 3; SAFETY_LOCKOUT after step 5");
        assertThat(run.code()).isEqualTo(ExitCodes.STOPPED);
    }

    @Test
    void set_overrides_change_where_the_rules_fire() throws IOException {
        // the same failure is also the same result each time (the no-progress rule): both moved out of the way
        CliRun run = replay(trace(failingReads(7)), "--set", "safety.repeat_alert_at=4", "--set",
                "safety.repeat_lock_at=8", "--set", "safety.loop_alert_at=8", "--set", "safety.loop_lock_at=9");

        assertThat(run.out().lines()).containsExactly(
                "step 4: alert (file_read): " + dev.hmpagent.safety.SafetyRules.REPEAT_ALERT,
                "replay: 7 steps; first alert at step 4; runs to its end");
        assertThat(run.code()).isZero();
    }

    @Test
    void a_persons_message_between_the_failures_starts_the_streak_again() throws IOException {
        List<String> lines = failingReads(3);
        lines.add("{\"person\": \"Try again, it is there now.\"}");
        IntStream.rangeClosed(4, 7).forEach(n -> lines.add(failingRead(n)));

        CliRun run = replay(trace(lines));

        assertThat(run.out().lines()).containsExactly(
                "step 3: alert (file_read): " + dev.hmpagent.safety.SafetyRules.REPEAT_ALERT,
                "step 6: alert (file_read): " + dev.hmpagent.safety.SafetyRules.REPEAT_ALERT,
                "replay: 7 steps; first alert at step 3; runs to its end");
    }

    @Test
    void the_budget_counts_each_steps_tokens_as_a_live_call_does_and_stops_before_the_call_that_would_exceed_it()
            throws IOException {
        // 4600 prompt of which 4000 cached (at the provider's discount) and 50 completion: what a live call costs
        long step = new dev.hmpagent.llm.Usage(4600, 50, false, 4000).budgetTokens();
        List<String> lines = new ArrayList<>(List.of("{\"person\": \"Say hello.\"}"));
        IntStream.rangeClosed(1, 4).forEach(n -> lines.add("{\"reply\": \"Hello " + n + ".\", \"tokens\": {\"prompt\":"
                + " 4600, \"cached\": 4000, \"completion\": 50}}"));

        CliRun budget = replay(trace(lines), "--set", "safety.token_budget=" + 2 * step);

        assertThat(budget.out().lines().toList()).last()
                .isEqualTo("replay: 2 steps; no alert; STOPPED(budget) after step 2");
        String both = String.format(java.util.Locale.ROOT, "%,d", 2 * step);
        assertThat(budget.out()).contains("before step 3: STOPPED(budget): token budget spent: " + both + " of " + both
                + " tokens in this task");
        assertThat(budget.code()).isEqualTo(ExitCodes.STOPPED);
    }

    @Test
    void the_call_asked_for_after_the_last_step_is_where_a_cap_stops_a_task() throws IOException {
        List<String> lines = new ArrayList<>(List.of("{\"person\": \"Count.\"}"));
        IntStream.rangeClosed(1, 3).forEach(n -> lines.add("{\"reply\": \"" + n + "\", \"commands\": [{\"type\":"
                + " \"shell\", \"args\": {\"command\": \"echo " + n + "\"}, \"status\": \"ok\", \"output\": \"" + n
                + "\"}]}"));

        CliRun ended = replay(trace(lines), "--set", "safety.tick_cap=3");
        lines.add("{\"next_call\": true}");
        CliRun asked = replay(trace(lines), "--set", "safety.tick_cap=3");

        assertThat(ended.out().lines()).containsExactly("replay: 3 steps; no alert; runs to its end");
        assertThat(asked.out().lines().toList()).first().asString()
                .startsWith("before step 4: SAFETY_LOCKOUT: task cap: waiting for a human (3 LLM calls in this task");
        assertThat(asked.out().lines().toList()).last().isEqualTo("replay: 3 steps; no alert; SAFETY_LOCKOUT after step 3");
        assertThat(asked.code()).isEqualTo(ExitCodes.STOPPED);
    }

    @Test
    void an_unreadable_line_is_exit_2_naming_the_line_and_what_was_wrong() throws IOException {
        List<String> lines = failingReads(2);
        lines.add("{\"reply\": \"cut off here");

        CliRun run = replay(trace(lines));

        assertThat(run.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("agent: " + dir.resolve("task.jsonl") + ": line 5: not JSON (")
                .endsWith("); each line is one JSON object\n");
    }

    @Test
    void a_command_without_its_status_is_exit_2_naming_the_line_and_the_field() throws IOException {
        CliRun run = replay(trace(List.of("{\"person\": \"hi\"}", "",
                "{\"reply\": \"x\", \"commands\": [{\"type\": \"shell\", \"args\": {\"command\": \"ls\"}}]}")));

        assertThat(run.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains(": line 3: command 1: \"status\" must be one of ok, warning, error, timeout,"
                + " offline, close, running, pending; not \"\"");
    }

    @Test
    void a_missing_trace_file_is_exit_2_saying_how_to_make_one() throws IOException {
        CliRun run = replay(dir.resolve("nope.jsonl"));

        assertThat(run.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).isEqualTo("agent: no such file " + dir.resolve("nope.jsonl")
                + "; agent log --export-trace > FILE writes one\n");
    }
}
