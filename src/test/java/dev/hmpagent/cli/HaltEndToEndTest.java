package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.safety.StopSignal;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeOpenAiServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** `agent halt`, `agent unlock` and `agent status` against a real file, with and without a running agent. */
@Timeout(60)
class HaltEndToEndTest {
    static final String COMMANDS = "\n# Commands:\n[{\"type\": \"memory_add\", \"args\": {\"title\": \"t\", \"content\": \"ran\"}}]";

    @TempDir Path dir;
    FakeOpenAiServer llm;
    Path db;
    Path config;
    final ByteArrayOutputStream terminalOut = new ByteArrayOutputStream();

    @BeforeEach
    void start() throws Exception {
        llm = new FakeOpenAiServer();
        db = dir.resolve("agent.db");
        config = dir.resolve("agent.toml");
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n");
        Store.open(db, Clock.systemUTC()).close();
    }

    @AfterEach
    void stop() {
        llm.close();
    }

    /** Runs one CLI command as another process would; returns exit code, stdout, stderr. */
    Run cli(String input, String... args) {
        return cli(Map.of("HOME", dir.toString()), input, args);
    }

    Run cli(Map<String, String> env, String input, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Launch launch = new Launch(env,
                () -> new DumbTerminal(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), terminalOut),
                Clock.systemUTC(), false);
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--config", config.toString(), "--db", db.toString(), "--base-url", llm.baseUrl()));
        int code = cl.execute(all.toArray(String[]::new));
        return new Run(code, out.toString(), err.toString());
    }

    record Run(int code, String out, String err) { }

    long count(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); ResultSet rs = c.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    String terminal() {
        return terminalOut.toString(StandardCharsets.UTF_8);
    }

    @Test
    void halt_during_a_slow_streaming_call_cancels_it_and_none_of_its_commands_ever_runs() throws Exception {
        CountDownLatch hungUp = new CountDownLatch(1);
        llm.slowUntilClientCloses("I will store this." + COMMANDS, hungUp)
                .streamed("Back after the unlock." + "\n# Commands:\n[{\"type\": \"send_message\", \"args\": {\"text\": \"resumed\"}}]", 5, 5)
                .streamed("Nothing more.", 5, 1);
        PipedOutputStream keys = new PipedOutputStream();
        PipedInputStream input = new PipedInputStream(keys);
        CountDownLatch resumed = new CountDownLatch(1);
        java.io.OutputStream screen = new java.io.OutputStream() {
            @Override
            public void write(int b) {
                terminalOut.write(b);
                if (b == '\n' && terminal().contains("agent> resumed")) resumed.countDown();
            }
        };
        Launch launch = new Launch(Map.of("HOME", dir.toString()), () -> new DumbTerminal(input, screen),
                Clock.systemUTC(), true);
        CompletableFuture<Integer> agent = CompletableFuture.supplyAsync(() -> Cli.commandLine(launch).execute(
                "--config", config.toString(), "--db", db.toString(), "--base-url", llm.baseUrl()));
        keys.write("store something\n".getBytes(StandardCharsets.UTF_8));
        keys.flush();
        llm.take();   // the slow call is in flight

        Run halt = cli("", "halt", "--reason", "too slow");

        assertThat(halt.code()).isZero();
        assertThat(halt.out()).contains("halted").contains("STOPPED(halt)")
                .as("the promise is the watcher's poll").contains("within " + StopSignal.POLL_MILLIS + " ms");
        assertThat(hungUp.await(10, TimeUnit.SECONDS)).as("the fake server saw the connection closed").isTrue();
        Run status = cli("", "status", "--json");
        assertThat(status.code()).as("status while stopped").isEqualTo(ExitCodes.STOPPED);
        JsonNode s = new ObjectMapper().readTree(status.out());
        assertThat(s.path("safety_state").asText()).isEqualTo("STOPPED");
        assertThat(s.path("stop_reason").asText()).isEqualTo("halt");
        assertThat(s.path("detail").asText()).isEqualTo("too slow");
        assertThat(s.path("runner").path("pid").asLong()).isEqualTo(ProcessHandle.current().pid());
        assertThat(s.path("pending_notes").asLong()).as("the message stays unread").isEqualTo(1);

        assertThat(cli("", "unlock", "--reason", "go on").code()).isZero();
        llm.take();   // thinking again: the unread message is asked again
        assertThat(resumed.await(10, TimeUnit.SECONDS)).isTrue();
        keys.write("/quit\n".getBytes(StandardCharsets.UTF_8));
        keys.close();

        assertThat(agent.get(30, TimeUnit.SECONDS)).isZero();
        assertThat(count("SELECT count(*) FROM llm_memory")).as("the halted reply's commands never ran").isZero();
        assertThat(count("SELECT count(*) FROM llm_recent_responses WHERE interrupted = 1 AND content LIKE 'I will store%'"))
                .isEqualTo(1);
        assertThat(count("SELECT count(*) FROM safety_audit")).isEqualTo(2);
        assertThat(count("SELECT count(*) FROM control_requests WHERE handled_at IS NOT NULL")).isEqualTo(2);
        assertThat(terminal()).contains("STOPPED(halt)").contains("agent> resumed");
    }

    @Test
    void a_halted_file_stays_stopped_across_a_restart_until_unlocked() throws Exception {
        assertThat(cli("", "halt").code()).isZero();

        Run piped = cli("hello\n", new String[0]);

        assertThat(piped.code()).as("stopped, the piped message is not answered").isEqualTo(ExitCodes.STOPPED);
        assertThat(llm.requestCount()).isZero();
        assertThat(count("SELECT count(*) FROM notes WHERE text = 'hello' AND read = 0")).isEqualTo(1);
        assertThat(piped.err()).contains("STOPPED(halt)").contains("agent unlock");
        assertThat(terminal()).as("piped, stdout holds answers alone").isEmpty();

        Run unlock = cli("", "unlock");
        assertThat(unlock.code()).isZero();
        assertThat(unlock.out()).contains("ACTIVE again");
        llm.streamed("Hi." + "\n# Commands:\n[{\"type\": \"send_message\", \"args\": {\"text\": \"hello to you\"}}]", 5, 5)
                .streamed("Done.", 5, 1);
        assertThat(cli("", new String[0]).code()).isZero();
        assertThat(llm.take().user()).contains("hello");
        assertThat(count("SELECT count(*) FROM notes WHERE text = 'hello' AND read = 1")).isEqualTo(1);
    }

    @Test
    void a_halt_the_file_cannot_take_is_obeyed_through_a_flag_and_recorded_once_it_can() throws Exception {
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n");
        CountDownLatch obeyed = new CountDownLatch(1);
        CountDownLatch prompt = new CountDownLatch(1);
        java.io.OutputStream screen = new java.io.OutputStream() {
            @Override
            public void write(int b) {
                terminalOut.write(b);
                if (terminal().endsWith("you> ")) prompt.countDown();
                if (b == '\n' && terminal().contains("the file could not take the halt")) obeyed.countDown();
            }
        };
        PipedOutputStream keys = new PipedOutputStream();
        PipedInputStream input = new PipedInputStream(keys);
        Launch launch = new Launch(Map.of("HOME", dir.toString()), () -> new DumbTerminal(input, screen),
                Clock.systemUTC(), true);
        CompletableFuture<Integer> agent = CompletableFuture.supplyAsync(() -> Cli.commandLine(launch).execute(
                "--config", config.toString(), "--db", db.toString(), "--base-url", llm.baseUrl()));
        assertThat(prompt.await(10, TimeUnit.SECONDS)).as("the agent runs").isTrue();
        Run status;
        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            other.createStatement().execute("BEGIN IMMEDIATE");   // nothing can be written to the file now
            Run halt = cli("", "halt", "--reason", "disk trouble");
            assertThat(halt.code()).isZero();
            assertThat(halt.out()).contains("agent.db.halt").contains("within " + StopSignal.POLL_MILLIS + " ms");
            assertThat(obeyed.await(10, TimeUnit.SECONDS)).as("the running agent obeys the flag").isTrue();
            status = cli("", "status");
            other.createStatement().execute("ROLLBACK");
        }
        assertThat(status.code()).isEqualTo(ExitCodes.STOPPED);
        assertThat(status.out()).contains("halted by agent.db.halt");
        // the file takes writes again: the running agent records the halt in it and lowers the flag
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (Files.exists(dir.resolve("agent.db.halt")) && System.nanoTime() < deadline) Thread.sleep(20);
        assertThat(dir.resolve("agent.db.halt")).doesNotExist();
        assertThat(count("SELECT count(*) FROM safety_state WHERE state = 'STOPPED' AND reason = 'halt'")).isEqualTo(1);
        assertThat(cli("", "unlock").code()).isZero();
        keys.write("/quit\n".getBytes(StandardCharsets.UTF_8));
        keys.close();
        assertThat(agent.get(30, TimeUnit.SECONDS)).isZero();
    }

    @Test
    void unlock_on_an_active_agent_says_so_and_a_budget_stop_is_refused_with_exit_7() throws Exception {
        Run active = cli("", "unlock");
        assertThat(active.code()).isZero();
        assertThat(active.out()).contains("already ACTIVE");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            c.createStatement().execute("UPDATE safety_state SET state = 'STOPPED', reason = 'budget'");
        }
        Run refused = cli("", "unlock");
        assertThat(refused.code()).isEqualTo(ExitCodes.STOPPED);
        assertThat(refused.err()).contains("STOPPED(budget)").contains("run agent unlock --add-budget N (tokens)");
    }

    @Test
    void status_of_a_file_no_agent_runs_on_is_read_only_and_says_so() throws Exception {
        long size = Files.size(db);
        Run status = cli("", "status");
        assertThat(status.code()).isZero();
        assertThat(status.out()).contains("agent.db: ACTIVE").contains("runner: none").contains("last tick: none yet")
                .contains("pending notes: 0");
        assertThat(Files.size(db)).isEqualTo(size);
    }

    @Test
    void halt_and_status_on_a_missing_file_create_nothing() {
        Path missing = dir.resolve("nowhere.db");
        Launch launch = new Launch(Map.of("HOME", dir.toString()), () -> { throw new AssertionError("no terminal"); },
                Clock.systemUTC(), false);
        StringWriter err = new StringWriter();
        CommandLine cl = Cli.commandLine(launch);
        cl.setErr(new PrintWriter(err, true));
        assertThat(cl.execute("halt", "--db", missing.toString())).isEqualTo(ExitCodes.DATABASE);
        assertThat(cl.execute("status", "--db", missing.toString())).isEqualTo(ExitCodes.DATABASE);
        assertThat(err.toString()).contains("does not exist");
        assertThat(missing).doesNotExist();
    }

    @Test
    void a_note_sent_while_the_agent_is_stopped_is_stored_acknowledged_and_waits_for_the_unlock() throws Exception {
        Store.open(db, Clock.systemUTC()).close();
        assertThat(cli("", "halt", "--reason", "lunch").code()).isZero();
        Run note = cli("", "note", "are", "you", "there?");
        assertThat(note.code()).isZero();
        assertThat(note.out()).contains("queued").contains("locked: STOPPED(halt)").contains("run agent unlock");
        assertThat(count("SELECT count(*) FROM notes WHERE text = 'are you there?' AND read = 0")).isEqualTo(1);
    }

    @Test
    void an_unlock_from_a_process_the_agent_started_is_refused_and_audited() throws Exception {
        Store.open(db, Clock.systemUTC()).close();
        assertThat(cli("", "halt", "--reason", "stop").code()).isZero();
        Run unlock = cli(Map.of("HOME", dir.toString(), "HMP_AGENT_PROC", "runner-7"), "", "unlock");
        assertThat(unlock.code()).isEqualTo(ExitCodes.STOPPED);
        assertThat(unlock.err()).contains("unlock refused").contains("a process the agent started");
        assertThat(count("SELECT count(*) FROM safety_audit WHERE event = 'unlock_refused'")).isEqualTo(1);
        assertThat(cli("", "status", "--json").code()).as("still stopped").isEqualTo(ExitCodes.STOPPED);
    }
}
