package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.a2a.ChildAgents;
import dev.hmpagent.runtime.Launch;
import dev.hmpagent.runtime.SpawnEndToEndTest;
import dev.hmpagent.store.Store;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A spawned child ({@code agent run} with {@link ChildAgents#PARENT_PID} set) stops cleanly when its parent process
 * is gone, however it went: a SIGKILLed parent runs none of its stops, and its children ran on before.
 */
@Timeout(120)
class RunStopsWithParentTest {
    @TempDir Path dir;
    /** The run's SIGTERM handler: fired when a test ends, so a run that did not stop never outlives its test. */
    final Map<String, Runnable> signals = new java.util.concurrent.ConcurrentHashMap<>();

    @org.junit.jupiter.api.AfterEach
    void stopWhatRuns() {
        signals.values().forEach(Runnable::run);
    }

    @Test
    void a_run_whose_parent_is_killed_stops_cleanly() throws Exception {
        Process parent = new ProcessBuilder("sleep", "300").start();
        try {
            Path db = dir.resolve("agent.db");
            CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> run(db, parent.pid()));
            assertThat(SpawnEndToEndTest.liveRunner(db)).as("the run started").isPresent();
            assertThat(run).as("still running while its parent lives").isNotDone();

            parent.destroyForcibly().waitFor();

            assertThat(run.get(60, TimeUnit.SECONDS)).as("a clean stop, as on SIGTERM").isZero();
        } finally {
            parent.destroyForcibly();
        }
    }

    @Test
    void a_run_whose_parent_is_already_gone_stops_at_once() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        assertThat(CompletableFuture.supplyAsync(() -> run(dir.resolve("agent.db"), gone.pid())).get(60, TimeUnit.SECONDS))
                .isZero();
    }

    private int run(Path db, long parentPid) {
        try {
            Store.open(db, Clock.systemUTC()).close();
            Path config = dir.resolve("agent.toml");
            Files.writeString(config, "[llm]\nmodel = \"m\"\n[cycle]\nautonomous = false\n");
            Launch launch = new Launch(Map.of("HOME", dir.toString(), ChildAgents.PARENT_PID, Long.toString(parentPid)),
                    () -> new DumbTerminal(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()),
                    Clock.systemUTC(), false, dev.hmpagent.runtime.LlmChain::client, signals::put);
            CommandLine cl = Cli.commandLine(launch);
            cl.setOut(new PrintWriter(new StringWriter(), true));
            cl.setErr(new PrintWriter(new StringWriter(), true));
            return cl.execute("run", "--hz", "20", "--config", config.toString(), "--db", db.toString(), "--base-url",
                    "http://127.0.0.1:9/v1");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
