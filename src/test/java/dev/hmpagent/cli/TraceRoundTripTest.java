package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code agent replay} on traces exported from the self-control suite's own runs: a real headless agent runs a
 * scenario, {@code agent log --export-trace} writes its task, and the replay's first alert, its stop and the state it
 * ends in equal the live run's. Compared with the live run, never with fixed numbers, so the test holds while the
 * rules change.
 */
class TraceRoundTripTest {
    /** "replay: 5 steps; first alert at step 3; SAFETY_LOCKOUT after step 5". */
    private static final Pattern SUMMARY = Pattern.compile(
            "replay: (\\d+) steps?; (?:no alert|first alert at step (\\d+)); (?:runs to its end|(\\S+) after step (\\d+)"
                    + "|rested after step (\\d+), then ran to its end)");

    @ParameterizedTest
    // one scenario per rule a replay must agree on (repeat, cycle, thrash, the task cap through next_call, talking) and
    // a healthy task whose failures are new errors after edits: each is a whole live run, so a few, not the suite
    @ValueSource(strings = {"same failing command, worded", "undo/redo of a file", "thrashing at 50 %",
            "every result answered by another command", "a build fixed step by step",
            "the same question reworded each tick"})
    void the_replayed_verdicts_of_a_recorded_task_equal_the_live_ones(String name, @TempDir Path dir) throws IOException {
        SelfControlScenario scenario = SelfControlScenario.all().stream().filter(s -> s.name().equals(name))
                .findFirst().orElseThrow();
        SelfControlRun.Outcome live = SelfControlRun.run(scenario, dir);
        Map<String, String> env = new HashMap<>(Map.of("HOME", dir.toString()));
        scenario.config().forEach((key, value) -> env.put("AGENT_" + key.toUpperCase(Locale.ROOT).replace('.', '_'), value));
        String config = dir.resolve("agent.toml").toString();

        CliRun export = CliRun.agent(env, cl -> { }, "log", "--export-trace", "--db", dir.resolve("agent.db").toString(),
                "--config", config);
        assertThat(export.code()).as(export.err()).isZero();
        Path trace = Files.writeString(dir.resolve("task.jsonl"), export.out());
        CliRun replay = CliRun.agent(env, cl -> { }, "replay", "--config", config, trace.toString());

        List<String> out = replay.out().lines().toList();
        Matcher m = SUMMARY.matcher(out.get(out.size() - 1));
        assertThat(m.matches()).as(replay.out() + replay.err()).isTrue();
        int firstAlert = m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
        int stop = m.group(4) != null ? Integer.parseInt(m.group(4)) : m.group(5) != null ? Integer.parseInt(m.group(5)) : 0;
        assertThat(firstAlert).as("first alert; live: %s; replay:%n%s", live, replay.out()).isEqualTo(live.alertCall());
        assertThat(stop).as("stop; live: %s; replay:%n%s", live, replay.out()).isEqualTo(live.stopCall());
        assertThat(m.group(3) == null ? "ACTIVE" : m.group(3)).isEqualTo(live.stopped() ? live.state() : "ACTIVE");
        assertThat(replay.code()).isEqualTo(m.group(3) == null ? ExitCodes.OK : ExitCodes.STOPPED);
        // every call the live run made is a step of the trace, and none is replayed past the stop
        assertThat(export.out().lines().filter(l -> l.startsWith("{\"step\":")).count()).isEqualTo(live.calls());
        assertThat(Integer.parseInt(m.group(1))).isEqualTo(live.stopped() ? live.stopCall() : live.calls());
    }
}
