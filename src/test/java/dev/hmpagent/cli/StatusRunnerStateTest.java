package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.runtime.Launch;
import dev.hmpagent.store.RunnerLock;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code agent status} on a runner row whose heartbeat is stale says what is true of its pid, checked on this host:
 * ended, another process now (a pid number comes back), or still the agent's (running, not answering). Before, all
 * three were "it looks stopped". Real processes ({@code sleep}) stand for the pids.
 */
class StatusRunnerStateTest {
    @TempDir Path dir;
    Process child;

    @AfterEach
    void kill() {
        if (child != null) child.destroyForcibly();
    }

    /** A live process, and when it started (as the kernel says). */
    Instant sleeper() throws Exception {
        child = new ProcessBuilder("sleep", "60").start();
        return child.info().startInstant().orElseThrow();
    }

    /** A runner row for {@code pid} on this host, taken at {@code takenAt} (start and heartbeat). */
    void runner(long pid, Instant takenAt) throws Exception {
        Files.writeString(dir.resolve("agent.toml"), "[llm]\nmodel = \"m\"\n");
        try (Store store = Store.open(dir.resolve("agent.db"), new MutableClock(takenAt))) {
            new RunnerLock(store, pid, RunnerLock.hostName(), p -> true, Duration.ofSeconds(30)).acquire();
        }
    }

    /** {@code agent status} at {@code now}. */
    CliRun status(Instant now, String... more) {
        StringWriter out = new StringWriter();
        Launch launch = new Launch(Map.of("HOME", dir.toString()), () -> new DumbTerminal(
                new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()), Clock.fixed(now, ZoneOffset.UTC),
                false);
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(new StringWriter(), true));
        String[] args = java.util.stream.Stream.concat(java.util.stream.Stream.of("status", "--db",
                dir.resolve("agent.db").toString(), "--config", dir.resolve("agent.toml").toString()),
                java.util.Arrays.stream(more)).toArray(String[]::new);
        return new CliRun(cl.execute(args), out.toString(), "");
    }

    static String runnerLine(CliRun run) {
        return run.out().lines().filter(l -> l.startsWith("runner: ")).findFirst().orElseThrow();
    }

    @Test
    void a_live_pid_that_started_after_the_agent_took_the_file_is_another_process_not_the_agent() throws Exception {
        Instant started = sleeper();
        runner(child.pid(), started.minusSeconds(600));   // the agent took the file 10 min before this pid began

        CliRun run = status(started.minusSeconds(480));

        assertThat(runnerLine(run)).endsWith("heartbeat 120.0 s ago (not running: its heartbeat is 120.0 s old, and pid "
                + child.pid() + " is another process now; the next agent takes the file over)");
        assertThat(new ObjectMapper().readTree(status(started.minusSeconds(480), "--json").out())
                .path("runner").path("state").asText()).isEqualTo("pid_reused");
    }

    @Test
    void the_agents_own_pid_alive_with_a_stale_heartbeat_is_running_but_not_answering() throws Exception {
        Instant started = sleeper();
        runner(child.pid(), started.plusSeconds(2));   // its process began, then it took the file

        CliRun run = status(started.plusSeconds(92));

        assertThat(runnerLine(run)).endsWith("(running but not answering: pid " + child.pid() + " is still the agent's"
                + " process, but its heartbeat is 90.0 s old; the next agent would take the file over)");
    }

    @Test
    void a_pid_that_ended_is_said_to_have_ended() throws Exception {
        Instant started = sleeper();
        child.destroyForcibly().waitFor();
        runner(child.pid(), started.plusSeconds(2));

        CliRun run = status(started.plusSeconds(5));

        assertThat(runnerLine(run)).endsWith("(not running: pid " + child.pid() + " has ended; the next agent takes"
                + " the file over)");
    }
}
