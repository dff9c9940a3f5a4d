package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.AgentJvm;
import dev.hmpagent.testing.FakeOpenAiServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A halt kills what runs at once, not at the exit (issue 32: removing the watcher's own kill on a halt failed no
 * test, since every test saw only the exit's): a running {@code agent run} whose model started {@code sleep 60} is
 * halted by {@code agent halt} from another process; the command's row is EHALT and its process gone while the agent
 * is still running, and the agent goes on answering {@code agent status}.
 */
@Timeout(90)
class HaltKillsChildrenEndToEndTest {
    static final String SLEEP = "sleep 61.5";

    Path dir;
    Path db;
    Path config;
    FakeOpenAiServer llm;
    Process run;

    @BeforeEach
    void setUp() throws IOException {
        dir = Files.createTempDirectory("hmp-halt-kill-");
        db = dir.resolve("agent.db");
        config = dir.resolve("agent.toml");
        Files.writeString(config, "[llm]\nmodel = \"m\"\napi_key = \"sk-halt-kill-0123456789\"\n[policy]\n"
                + "shell_allow = [\"*\"]\n[stagnation]\nmethod = \"local\"\nreflex = false\n");
        llm = new FakeOpenAiServer();
    }

    @AfterEach
    void tearDown() throws IOException {
        if (run != null && run.isAlive()) run.destroyForcibly();
        llm.close();
        ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").contains(SLEEP))
                .forEach(ProcessHandle::destroyForcibly);
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    Process agent(String... args) throws IOException {
        Process p = new AgentJvm(config, db, llm.baseUrl(), dir, dir).start(args);
        if (args.length > 0 && args[0].equals("run")) {
            // nobody reads a running agent's lines here: drained so it never blocks on a full pipe
            Thread drain = new Thread(() -> {
                try {
                    p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
                } catch (IOException e) {
                    // the agent ended
                }
            });
            drain.setDaemon(true);
            drain.start();
        }
        return p;
    }

    @Test
    void agent_halt_kills_a_running_command_at_once_and_the_agent_keeps_running() throws Exception {
        llm.streamed("Waiting a while.\n# Commands:\n[{\"cmd_id\": \"s\", \"type\": \"shell\", \"args\": {\"command\": \""
                + SLEEP + "\", \"timeout_s\": 120}}]\n# End commands", 10, 5);
        for (int i = 0; i < 10; i++) llm.streamed("Still waiting, round " + i + ".", 10, 5);
        assertThat(agent("note", "start the long job").waitFor(60, TimeUnit.SECONDS)).isTrue();
        run = agent("run", "--hz", "20");
        String running = await("SELECT status FROM process_log WHERE cmd_id = 's'", "running");
        assertThat(running).isEqualTo("running");
        assertThat(awaitSleepers(true)).as("the command runs").isPositive();

        halt();

        String row = await("SELECT status || ' ' || coalesce(error_code, '') FROM process_log WHERE cmd_id = 's'",
                "error EHALT");
        assertThat(row).isEqualTo("error EHALT");
        assertThat(run.isAlive()).as("the agent is still running: the kill was the halt's, not the exit's").isTrue();
        assertThat(awaitSleepers(false)).as("its process is gone").isZero();
        Process status = agent("status");
        assertThat(status.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(status.exitValue()).as("stopped: exit 7").isEqualTo(7);
        assertThat(AgentJvm.read(status)).contains("STOPPED");
    }

    /** Halts the running agent from another process: {@code agent halt} here, another way in a subclass. */
    void halt() throws Exception {
        Process halt = agent("halt", "--reason", "enough");
        assertThat(halt.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(halt.exitValue()).as(AgentJvm.read(halt)).isZero();
    }

    /** The first column of {@code sql} once it equals {@code want}, or what it is after 20 s. */
    String await(String sql, String want) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        String got = null;
        while (Instant.now().isBefore(deadline)) {
            got = query(sql);
            if (want.equals(got)) return got;
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        return got;
    }

    String query(String sql) throws Exception {
        if (!Files.exists(db)) return null;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); ResultSet rs = c.createStatement()
                .executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (java.sql.SQLException e) {
            return null;   // busy for a moment, or not made yet
        }
    }

    /** How many processes run the sleep, once there are some ({@code some}) or none, or after 20 s. */
    static long awaitSleepers(boolean some) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        long n = sleepers();
        while ((n > 0) != some && Instant.now().isBefore(deadline)) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            n = sleepers();
        }
        return n;
    }

    static long sleepers() {
        return ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").contains(SLEEP)).count();
    }

}
