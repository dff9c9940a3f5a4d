package dev.hmpagent.cli;

import dev.hmpagent.runtime.LlmChain;

import dev.hmpagent.runtime.Launch;
import dev.hmpagent.runtime.Wiring;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeOpenAiServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** `agent run`: the headless face, on a real file against a scripted LLM on a real socket. */
@Timeout(60)
class RunEndToEndTest {
    static final String SAY_HI = "Answering.\n# Commands:\n[{\"type\": \"send_message\", \"args\": {\"text\": \"hi there\"}}]";

    @TempDir Path dir;
    FakeOpenAiServer llm;
    Path db;
    Path config;
    final Map<String, Runnable> signals = new ConcurrentHashMap<>();

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

    record Run(int code, String out, String err) {
        List<JsonNode> json() throws Exception {
            List<JsonNode> lines = new ArrayList<>();
            for (String line : out.strip().split("\n")) lines.add(new ObjectMapper().readTree(line));
            return lines;
        }
    }

    Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Launch launch = new Launch(Map.of("HOME", dir.toString()),
                () -> new DumbTerminal(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()),
                Clock.systemUTC(), false, dev.hmpagent.runtime.LlmChain::client, signals::put);
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--config", config.toString(), "--db", db.toString(), "--base-url", llm.baseUrl()));
        return new Run(cl.execute(all.toArray(String[]::new)), out.toString(), err.toString());
    }

    long count(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); ResultSet rs = c.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    String text(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); ResultSet rs = c.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    @Test
    void run_with_max_ticks_answers_a_queued_note_prints_json_lines_and_exits_0() throws Exception {
        assertThat(cli("note", "hello").code()).isZero();
        llm.streamed(SAY_HI, 10, 5).streamed("Nothing more.", 10, 1);

        Run run = cli("run", "--hz", "50", "--max-ticks", "10", "--json");

        assertThat(run.code()).as(run.err()).isZero();
        List<JsonNode> lines = run.json();
        assertThat(lines).allSatisfy(l -> {
            assertThat(l.path("ts").asText()).isNotEmpty();
            assertThat(l.has("tick")).as("a tick id on every line: " + l).isTrue();
        });
        assertThat(lines).anySatisfy(l -> {
            assertThat(l.path("event").asText()).isEqualTo("message");
            assertThat(l.path("tick").asLong()).isEqualTo(1);
            assertThat(l.path("text").asText()).isEqualTo("hi there");
        });
        assertThat(lines).anySatisfy(l -> assertThat(l.path("event").asText()).isEqualTo("tick"));
        assertThat(lines).as("command results are printed by default").anySatisfy(l -> {
            assertThat(l.path("event").asText()).isEqualTo("command");
            assertThat(l.path("type").asText()).isEqualTo("send_message");
        });
        assertThat(count("SELECT count(*) FROM notes WHERE text = 'hello' AND read = 1")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM runner_lock")).isZero();
    }

    @Test
    void a_clean_max_ticks_exit_closes_the_row_of_the_shell_command_it_stopped_saying_why() throws Exception {
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n[policy]\nshell_allow = [\"sleep\"]\n");
        cli("note", "start something slow");
        llm.streamed("Starting.\n# Commands:\n[{\"type\": \"shell\", \"args\": {\"command\": \"sleep 60\"}}]", 10, 5)
                .streamed("Waiting.", 10, 1);

        Run run = cli("run", "--hz", "50", "--max-ticks", "3");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(count("SELECT count(*) FROM process_log WHERE name = 'shell'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM process_log WHERE status IN ('running', 'pending')"))
                .as("no row left in flight after a clean exit").isZero();
        assertThat(count("SELECT count(*) FROM process_log WHERE name = 'shell' AND status = 'warning' "
                + "AND pain_level = 0 AND result LIKE 'stopped because the agent exited after %'"))
                .as("closed as stopped, saying why: %s", text("SELECT status || ' ' || result "
                        + "FROM process_log WHERE name = 'shell'"))
                .isEqualTo(1);
    }

    @Test
    void no_op_frames_print_nothing_unless_verbose() throws Exception {
        Run quiet = cli("run", "--hz", "50", "--max-ticks", "5");
        assertThat(quiet.code()).isZero();
        assertThat(quiet.out()).doesNotContain("no-op");
        Run verbose = cli("run", "--hz", "50", "--max-ticks", "5", "--verbose");
        assertThat(verbose.out().lines().filter(l -> l.contains("nothing new (no-op frame")).count()).isEqualTo(5);
        Run json = cli("run", "--hz", "50", "--max-ticks", "3", "--verbose", "--json");
        assertThat(json.json()).filteredOn(l -> l.path("event").asText().equals("noop")).hasSize(3);
    }

    @Test
    void until_idle_with_the_llm_down_exits_6_after_the_give_up_time_with_the_note_unread() throws Exception {
        cli("note", "anyone?");
        llm.close();
        Run run = cli("run", "--until-idle", "--set", "llm.give_up_s=0");
        assertThat(run.code()).isEqualTo(ExitCodes.LLM_UNAVAILABLE);
        assertThat(run.out()).contains("giving up");
        assertThat(count("SELECT count(*) FROM notes WHERE text = 'anyone?' AND read = 0")).isEqualTo(1);
    }

    @Test
    void a_huge_message_is_clipped_on_a_text_line_with_the_command_that_prints_it_whole() throws Exception {
        cli("note", "hello");
        String huge = "z".repeat(100_000);
        llm.streamed("Here.\n# Commands:\n[{\"type\": \"send_message\", \"args\": {\"text\": \"" + huge + "\"}}]", 5, 5)
                .streamed("Done.", 5, 1);
        Run run = cli("run", "--until-idle");
        assertThat(run.code()).isZero();
        String line = run.out().lines().filter(l -> l.contains("agent> ")).findFirst().orElseThrow();
        assertThat(line).hasSizeLessThan(4_096 + 300).contains("95904 more characters")
                .contains("SELECT text FROM notes WHERE id = 2");
    }

    @Test
    void until_idle_answers_what_waits_then_exits_0() throws Exception {
        cli("note", "hello");
        llm.streamed(SAY_HI, 10, 5).streamed("Done.", 10, 1);
        Run run = cli("run", "--until-idle");
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("agent> hi there");
    }

    @Test
    void exit_on_lockout_exits_7_on_a_halted_file_without_calling_the_llm() throws Exception {
        cli("note", "hello");
        cli("halt", "--reason", "maintenance");
        Run run = cli("run", "--exit-on-lockout", "--hz", "50");
        assertThat(run.code()).isEqualTo(ExitCodes.STOPPED);
        assertThat(run.out()).contains("STOPPED(halt)").contains("maintenance");
        assertThat(llm.requestCount()).isZero();
    }

    @Test
    void sigterm_abandons_the_call_in_flight_keeps_it_as_interrupted_releases_the_lock_and_exits_143() throws Exception {
        cli("note", "tell me a story");
        CountDownLatch hungUp = new CountDownLatch(1);
        llm.slowUntilClientCloses("Once upon" + "\n# Commands:\n[{\"type\": \"memory_add\", \"args\": {\"content\": \"x\"}}]",
                hungUp);
        CompletableFuture<Run> run = CompletableFuture.supplyAsync(() -> cli("run", "--hz", "20"));
        llm.take();
        signals.get("TERM").run();

        Run done = run.get(30, TimeUnit.SECONDS);
        assertThat(done.code()).isEqualTo(143);
        assertThat(hungUp.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(count("SELECT count(*) FROM llm_recent_responses WHERE interrupted = 1")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM llm_memory")).as("not a halt, but its commands never ran").isZero();
        assertThat(count("SELECT count(*) FROM runner_lock")).isZero();
        assertThat(count("SELECT count(*) FROM safety_state WHERE state = 'ACTIVE'")).as("SIGTERM is not a halt").isEqualTo(1);
        assertThat(count("SELECT count(*) FROM notes WHERE text = 'tell me a story' AND read = 0")).isEqualTo(1);
    }

    @Test
    void sigint_with_no_call_in_flight_exits_0() throws Exception {
        CompletableFuture<Run> run = CompletableFuture.supplyAsync(() -> cli("run", "--hz", "20"));
        while (!signals.containsKey("INT")) Thread.onSpinWait();
        awaitRunnerPublished();
        signals.get("INT").run();
        assertThat(run.get(30, TimeUnit.SECONDS).code()).isZero();
        assertThat(count("SELECT count(*) FROM runner_lock")).isZero();
    }

    @Test
    void sigint_while_the_agent_starts_is_a_clean_stop_before_any_tick_exit_0() throws Exception {
        // before: the handlers were taken after the start (sandbox probe, MCP servers): a SIGINT then was the JVM's
        // own, exit 130 with the start half done
        cli("note", "are you there?");
        List<Long> locksWhenTaken = new ArrayList<>();
        Launch launch = new Launch(Map.of("HOME", dir.toString()),
                () -> new DumbTerminal(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()),
                Clock.systemUTC(), false, dev.hmpagent.runtime.LlmChain::client, (name, action) -> {
                    if (!name.equals("INT")) return;
                    try {
                        locksWhenTaken.add(count("SELECT count(*) FROM runner_lock"));
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    action.run();   // the person presses Ctrl-C the moment the handler exists
                });
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(new StringWriter(), true));
        cl.setErr(new PrintWriter(new StringWriter(), true));

        int code = cl.execute("run", "--hz", "20", "--config", config.toString(), "--db", db.toString(),
                "--base-url", llm.baseUrl());

        assertThat(locksWhenTaken).as("taken before the start takes the file").containsExactly(0L);
        assertThat(code).isZero();
        assertThat(llm.requestCount()).as("stopped before its first tick").isZero();
        assertThat(count("SELECT count(*) FROM runner_lock")).isZero();
        assertThat(count("SELECT count(*) FROM notes WHERE text = 'are you there?' AND read = 0")).isEqualTo(1);
    }

    @Test
    void status_from_another_process_reads_phase_hz_and_no_op_ticks_while_the_agent_runs() throws Exception {
        CompletableFuture<Run> run = CompletableFuture.supplyAsync(() -> cli("run", "--hz", "20"));
        JsonNode runner = awaitRunnerPublished();
        assertThat(runner.path("hz").asDouble()).isEqualTo(20.0);
        assertThat(runner.path("phase").asText()).isEqualTo("WAITING_FOR_EVENT");
        assertThat(runner.path("alive").asBoolean()).isTrue();
        assertThat(runner.path("published_age_s").asDouble()).isLessThan(5);
        JsonNode later = awaitStatus(s -> s.path("runner").path("noop_ticks").asLong() > runner.path("noop_ticks").asLong());
        assertThat(later.path("runner").path("noop_ticks").asLong()).as("idle frames counted, nothing written for them")
                .isPositive();
        assertThat(count("SELECT count(*) FROM agent_log")).isZero();
        while (!signals.containsKey("TERM")) Thread.onSpinWait();
        signals.get("TERM").run();
        assertThat(run.get(30, TimeUnit.SECONDS).code()).isZero();
    }

    @Test
    void a_note_from_another_process_is_answered_by_a_running_agent() throws Exception {
        llm.streamed(SAY_HI, 10, 5);
        CompletableFuture<Run> run = CompletableFuture.supplyAsync(() -> cli("run", "--hz", "10"));
        awaitRunnerPublished();
        assertThat(cli("note", "hello from outside").code()).isZero();
        assertThat(llm.take().user()).contains("hello from outside");
        // the message is delivered by the executor after the tick committed; TERM ends the loop between ticks
        while (count("SELECT count(*) FROM process_log WHERE name = 'send_message' AND status = 'ok'") == 0) {
            Thread.onSpinWait();
        }
        signals.get("TERM").run();
        Run done = run.get(30, TimeUnit.SECONDS);
        assertThat(done.out()).contains("agent> hi there");
    }

    /** Waits (bounded) until the running agent has published its figures once. */
    JsonNode awaitRunnerPublished() throws Exception {
        return awaitStatus(s -> s.path("runner").has("published_age_s")).path("runner");
    }

    JsonNode awaitStatus(java.util.function.Predicate<JsonNode> ready) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            Run status = cli("status", "--json");
            JsonNode s = new ObjectMapper().readTree(status.out());
            if (ready.test(s)) return s;
            if (System.nanoTime() > deadline) throw new AssertionError("status never became ready: " + status.out());
            Thread.sleep(50);   // polling another process's view of the file, not waiting for our own thread
        }
    }

    @Test
    void a_shell_failure_whose_result_locks_the_agent_is_followed_by_no_request() throws Exception {
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n[policy]\nshell_allow = [\"ls\"]\n"
                + "[shell]\nmax_processes = 8\n");
        cli("note", "look around");
        // five identical failing commands in flight: the fifth result, recorded at the start of a tick, locks
        String ls = "{\"type\": \"shell\", \"args\": {\"command\": \"ls /no/such/dir\"}}";
        llm.streamed("Looking.\n# Commands:\n[" + String.join(", ", java.util.Collections.nCopies(5, ls)) + "]",
                3300, 5).streamed("Looking again.", 3300, 5).streamed("Once more.", 3300, 5);

        Run run = cli("run", "--exit-on-lockout", "--hz", "10");

        assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.STOPPED);
        assertThat(count("SELECT count(*) FROM safety_audit WHERE event = 'lockout'")).isEqualTo(1);
        String lockedAt = text("SELECT at FROM safety_audit WHERE event = 'lockout'");
        assertThat(count("SELECT count(*) FROM llm_calls WHERE purpose = 'main' AND at > '" + lockedAt + "'"))
                .as("no request was made after the audit row").isZero();
        assertThat(llm.requestCount()).as("every request the server received was one the agent recorded")
                .isEqualTo(count("SELECT count(*) FROM llm_calls WHERE purpose = 'main'"));
        assertThat((run.out() + run.err()).lines().filter(l -> l.contains("SAFETY_LOCKOUT")))
                .as("the lockout is said once, naming the command as typed and its error").singleElement().asString()
                .contains("the command: ls /no/such/dir;").contains("No such file or directory");
        assertThat(run.out()).as("a person's lines: no words written for the model, no nanosecond UTC stamps")
                .doesNotContain("PAIN ").doesNotContain("SYSTEM ALERT").doesNotContain("[the agent is locked")
                .doesNotContainPattern("\\d{2}:\\d{2}:\\d{2}\\.\\d+Z");
    }
}
