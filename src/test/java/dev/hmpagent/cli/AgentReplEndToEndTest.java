package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.NoteRow;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessRow;
import dev.hmpagent.store.RunnerLock;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.TickRecord;
import dev.hmpagent.testing.FakeOpenAiServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.Map;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The whole agent from the command line: piped input, a real socket to a scripted LLM, a real file. */
@Timeout(60)
class AgentReplEndToEndTest {
    static final String REPLY = """
            The user greeted me. I will answer, note the meeting, and remember their name.

            # Commands:
            ```json
            [{"cmd_id": "c-1", "type": "send_message", "args": {"text": "Hello, human! Nice to meet you."}, "description": "greet"},
             {"cmd_id": "c-2", "type": "diary_entry", "args": {"text": "Met a new user today.", "tags": "meeting"}},
             {"cmd_id": "c-3", "type": "memory_add", "args": {"title": "user", "content": "likes short answers", "tags": "profile"}}]
            ```
            # End commands
            """;

    static final String PROMPT = "you> ";

    @TempDir Path dir;
    FakeOpenAiServer llm;
    Path db;
    Path config;
    final ByteArrayOutputStream terminalOut = new ByteArrayOutputStream();
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();

    @BeforeEach
    void start() throws IOException {
        llm = new FakeOpenAiServer();
        db = dir.resolve("agent.db");
        config = dir.resolve("agent.toml");
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n");
    }

    @AfterEach
    void stop() {
        llm.close();
    }

    int agent(String input, String... args) {
        return agent(Map.of(), input, args);
    }

    /** The agent with {@code env} added to its environment (HOME is the test's folder). */
    int agent(Map<String, String> env, String input, String... args) {
        Map<String, String> all0 = new java.util.HashMap<>(env);
        all0.put("HOME", dir.toString());
        Launch launch = new Launch(Map.copyOf(all0),
                () -> new DumbTerminal(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), terminalOut),
                Clock.systemUTC(), false);
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of("--config", config.toString(), "--db", db.toString()));
        all.addAll(List.of(args));
        return cl.execute(all.toArray(String[]::new));
    }

    /** All the person saw: piped, stdout (answers) and stderr (everything else). */
    String terminal() {
        return terminalOut.toString(StandardCharsets.UTF_8) + err;
    }

    /** Stdout alone: the answers. */
    String stdout() {
        return terminalOut.toString(StandardCharsets.UTF_8);
    }

    long count(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); ResultSet rs = c.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    @Test
    void a_typed_line_reaches_the_llm_its_commands_run_and_the_answer_appears_on_the_terminal() throws Exception {
        llm.streamed(REPLY, 812, 95).streamed("Greeted the user; nothing else to do.", 900, 9);

        int code = agent("hello agent, I am Ann\n", "--base-url", llm.baseUrl());

        assertThat(code).as(err.toString()).isZero();
        FakeOpenAiServer.Received first = llm.take();
        assertThat(first.request().getUrl().encodedPath()).isEqualTo("/v1/chat/completions");
        assertThat(first.body().path("model").asText()).isEqualTo("test-model");
        assertThat(first.body().path("stream").asBoolean()).isTrue();
        assertThat(first.body().path("stream_options").path("include_usage").asBoolean()).isTrue();
        assertThat(first.system()).contains("send_message").contains("diary_entry").contains("# Commands:");
        assertThat(first.user()).contains("hello agent, I am Ann").contains("Context 4");
        // every command of the answer only had an effect: nothing wakes the LLM again (one question, one call)
        assertThat(llm.requestCount()).as("a plain question costs one call").isEqualTo(1);

        assertThat(terminal()).contains("Hello, human! Nice to meet you.");

        try (Store store = Store.open(db, Clock.systemUTC())) {
            List<NoteRow> notes = new NotesDao(store).after(0, 10);
            assertThat(notes).extracting(NoteRow::source, NoteRow::text, NoteRow::read).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("user", "hello agent, I am Ann", true),
                    org.assertj.core.groups.Tuple.tuple("llm", "Hello, human! Nice to meet you.", true));
            List<ProcessRow> rows = new ProcessLogDao(store).byTick(1);
            assertThat(rows).extracting(ProcessRow::cmdId).containsExactly("c-1", "c-2", "c-3");
            assertThat(rows).allSatisfy(r -> assertThat(r.status()).isEqualTo("ok"));
            List<TickRecord> ticks = new dev.hmpagent.store.AgentLogDao(store).latest(10);
            assertThat(ticks).extracting(TickRecord::tickId).containsExactly(1L);
            assertThat(ticks.get(0).promptTokens()).isEqualTo(812);
            assertThat(ticks.get(0).completionTokens()).isEqualTo(95);
            assertThat(ticks.get(0).commandsRun()).isEqualTo(3);
        }
        assertThat(count("SELECT count(*) FROM diary_entries WHERE text = 'Met a new user today.' AND tags = 'meeting'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM llm_memory WHERE content = 'likes short answers'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM llm_recent_responses")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM runner_lock")).as("the lock is released on exit").isZero();
    }

    @Test
    void the_end_of_input_waits_for_a_shell_command_still_running_and_answers_its_result() throws Exception {
        // issue 23: the drain used to end at the first idle look, killing the process ("stopped because the agent
        // exited") with its result never answered; now the process's own timeout bounds the wait
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n[policy]\nshell_allow = [\"sleep\"]\n"
                + "[shell]\ntimeout_s = 1\n");
        llm.streamed("Starting.\n# Commands:\n[{\"type\": \"shell\", \"args\": {\"command\": \"sleep 60\"}}]", 10, 5)
                .streamed("It timed out; I tell the person.", 10, 1);

        int code = agent("start something slow\n", "--base-url", llm.baseUrl());

        assertThat(code).as(err.toString()).isZero();
        assertThat(count("SELECT count(*) FROM process_log WHERE status IN ('running', 'pending')"))
                .as("no row left in flight after the input ended").isZero();
        assertThat(count("SELECT count(*) FROM process_log WHERE name = 'shell' AND status = 'timeout'"))
                .as("the process ran to its own timeout").isEqualTo(1);
        assertThat(llm.requestCount()).as("its result was answered before the exit").isEqualTo(2);
    }

    @Test
    void a_non_streaming_server_works_the_same() throws Exception {
        llm.plain(REPLY, 500, 80).plain("Nothing more.", 600, 3);

        int code = agent("hi\n", "--base-url", llm.baseUrl(), "--set", "llm.stream=false");

        assertThat(code).isZero();
        FakeOpenAiServer.Received first = llm.take();
        assertThat(first.body().path("stream").asBoolean()).isFalse();
        assertThat(first.user()).contains("hi");
        assertThat(terminal()).contains("Hello, human! Nice to meet you.");
        assertThat(count("SELECT sum(prompt_tokens) FROM agent_log")).isEqualTo(500);
        assertThat(llm.requestCount()).isEqualTo(1);
    }

    @Test
    void an_unreachable_llm_says_which_endpoint_keeps_the_message_queued_and_a_later_run_answers_it() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        String deadUrl = "http://127.0.0.1:" + closedPort + "/v1";

        int code = agent("are you there?\n", "--base-url", deadUrl, "--set", "llm.give_up_s=0");

        assertThat(code).as("never 0 with a message unanswered").isEqualTo(ExitCodes.LLM_UNAVAILABLE);
        assertThat(terminal()).contains("giving up: the LLM stayed unreachable for llm.give_up_s = 0 s")
                .contains("your messages stay queued");
        assertThat(terminal()).contains(deadUrl).contains("not reachable").contains("retrying in").contains("stay queued");
        assertThat(count("SELECT count(*) FROM notes WHERE text = 'are you there?' AND read = 0")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM agent_log WHERE state = 'llm_error'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM process_log WHERE name = 'llm_call' AND status = 'close' AND fingerprint IS NOT NULL"))
                .isEqualTo(1);

        llm.streamed("Yes, I am here now." + "\n# Commands:\n{\"type\": \"send_message\", \"args\": {\"text\": \"I am back.\"}}", 10, 5)
                .streamed("Done.", 10, 1);
        terminalOut.reset();
        err.getBuffer().setLength(0);
        assertThat(agent("", "--base-url", llm.baseUrl())).isZero();
        assertThat(llm.take().user()).contains("are you there?").as("the server's trouble is not the LLM's failure")
                .doesNotContain("not reachable");
        assertThat(terminal()).contains("I am back.");
        assertThat(count("SELECT count(*) FROM notes WHERE text = 'are you there?' AND read = 1")).isEqualTo(1);
    }

    @Test
    void an_exhausted_quota_with_no_other_llm_stops_a_piped_agent_with_exit_7_and_the_quotas_own_advice()
            throws Exception {
        llm.insufficientQuota();

        int code = agent("hello\n", "--base-url", llm.baseUrl());

        assertThat(code).as("a stop (quota), not bad configuration").isEqualTo(ExitCodes.STOPPED);
        assertThat(llm.requestCount()).as("not asked again").isEqualTo(1);
        List<String> lines = terminal().lines().filter(l -> !l.isBlank() && !l.equals(PROMPT)).toList();
        assertThat(lines).as("nothing promises a retry, nothing blames the key").hasSize(3)
                .noneMatch(l -> l.contains("back-off") || l.contains("retrying") || l.contains("fix llm.api_key"));
        assertThat(lines.get(0)).startsWith("! LLM endpoint " + llm.baseUrl()).contains("quota or credit is exhausted")
                .endsWith("the agent is stopped (quota); your messages stay queued");
        assertThat(lines.get(1)).startsWith("! STOPPED(quota): ").doesNotContain("must run agent unlock")
                .endsWith(dev.hmpagent.safety.SafetyMonitor.QUOTA_RELEASE);
        assertThat(lines.get(2)).isEqualTo("! exiting: stopped (quota): no LLM the agent may use has quota or credit"
                + " left; add credit or raise the quota with the provider, or configure another LLM (llm.* or an"
                + " llm.registry entry to fail over to), then start the agent again; agent unlock does not release it;"
                + " your messages stay queued in agent.db for the next start");
        assertThat(count("SELECT count(*) FROM safety_state WHERE state = 'STOPPED' AND reason = 'quota'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM notes WHERE text = 'hello' AND read = 0")).as("kept for the next start")
                .isEqualTo(1);
    }

    @Test
    void a_rejected_api_key_is_explained_without_printing_the_key() throws Exception {
        llm.status(401, "{\"error\": {\"message\": \"Incorrect API key provided: sk-test-secret-4242\"}}");

        int code = agent(Map.of("OPENAI_API_KEY", "sk-test-secret-4242"), "hello\n", "--base-url", llm.baseUrl());

        assertThat(code).as("a rejected key is bad configuration").isEqualTo(ExitCodes.CONFIG);
        assertThat(llm.requestCount()).as("not asked again with the same key").isEqualTo(1);
        assertThat(llm.take().request().getHeaders().get("Authorization")).isEqualTo("Bearer sk-test-secret-4242");
        assertThat(terminal()).contains("API key").contains("OPENAI_API_KEY").doesNotContain("sk-test-secret-4242");
        assertThat(count("SELECT count(*) FROM process_log WHERE result LIKE '%sk-test-secret%' OR value LIKE '%sk-test-secret%'"))
                .isZero();
        assertThat(count("SELECT count(*) FROM agent_log WHERE error LIKE '%sk-test-secret%'")).isZero();
    }

    @Test
    void a_key_given_with_set_is_refused_with_exit_3_before_anything_starts_and_is_never_echoed() throws Exception {
        int code = agent("hello\n", "--base-url", llm.baseUrl(), "--set", "llm.api_key=sk-test-secret-4242");

        assertThat(code).isEqualTo(ExitCodes.CONFIG);
        assertThat(err.toString()).contains("--set llm.api_key").contains("put keys in the environment or the key file");
        assertThat(err.toString().strip()).doesNotContain("\n");
        assertThat(err + out.toString() + terminal()).doesNotContain("sk-test-secret-4242").doesNotContain("4242");
        assertThat(llm.requestCount()).as("nothing was sent anywhere").isZero();
        assertThat(db).as("no file was made").doesNotExist();
    }

    @Test
    void a_pipe_that_ends_while_the_llm_is_backing_off_waits_for_it_and_is_answered() throws Exception {
        llm.status(503, "{\"error\": {\"message\": \"loading model\"}}")
                .streamed("Here now." + "\n# Commands:\n{\"type\": \"send_message\", \"args\": {\"text\": \"Answered.\"}}", 10, 5)
                .streamed("Done.", 10, 1);

        int code = agent("still there?\n", "--base-url", llm.baseUrl(), "--set", "llm.give_up_s=30");

        assertThat(code).as(terminal()).isZero();
        assertThat(llm.requestCount()).as("the failed try, then the answer; its send_message wakes nothing").isEqualTo(2);
        assertThat(terminal()).contains("retrying in 1 s").contains("Answered.");
        assertThat(count("SELECT count(*) FROM notes WHERE text = 'still there?' AND read = 1")).isEqualTo(1);
    }

    static final String ANSWER = "Answering." + "\n# Commands:\n{\"type\": \"send_message\", \"args\": {\"text\": \"Answered.\"}}";

    @Test
    void a_login_page_instead_of_a_stream_is_a_retried_failure_naming_the_content_type() throws Exception {
        llm.loginPage().streamed(ANSWER, 10, 5).streamed("Done.", 10, 1);

        int code = agent("hello\n", "--base-url", llm.baseUrl(), "--set", "llm.give_up_s=30");

        assertThat(code).isZero();
        assertThat(terminal()).contains("text/html").contains("retrying in").contains("Answered.");
        assertThat(count("SELECT count(*) FROM agent_log WHERE state = 'llm_error'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM llm_recent_responses WHERE content = ''"))
                .as("the page is not stored as an empty reply").isZero();
        assertThat(count("SELECT count(*) FROM notes WHERE text = 'hello' AND read = 1")).isEqualTo(1);
    }

    @Test
    void a_stream_cut_off_without_done_keeps_the_partial_as_interrupted_and_the_message_unread_until_answered()
            throws Exception {
        llm.truncated("The answer is").streamed(ANSWER, 10, 5).streamed("Done.", 10, 1);

        int code = agent("what is it?\n", "--base-url", llm.baseUrl(), "--set", "llm.give_up_s=30");

        assertThat(code).isZero();
        assertThat(count("SELECT count(*) FROM llm_recent_responses WHERE content = 'The answer is' AND interrupted = 1"))
                .isEqualTo(1);
        assertThat(count("SELECT count(*) FROM notes WHERE text = 'what is it?' AND read = 1 AND tick_id = 2"))
                .as("read by the retry that answered, not by the cut-off reply").isEqualTo(1);
        assertThat(terminal()).contains("Answered.");
    }

    @Test
    void a_server_that_only_sends_keep_alives_hits_the_call_deadline_and_the_call_is_retried() throws Exception {
        llm.keepAliveOnly("Let me").streamed(ANSWER, 10, 5).streamed("Done.", 10, 1);

        int code = agent("hi\n", "--base-url", llm.baseUrl(), "--set", "llm.call_deadline_s=1", "--set", "llm.give_up_s=30");

        assertThat(code).isZero();
        assertThat(terminal()).contains("llm.call_deadline_s").contains("Answered.");
        assertThat(count("SELECT count(*) FROM llm_recent_responses WHERE content = 'Let me' AND interrupted = 1"))
                .isEqualTo(1);
    }

    @Test
    void a_model_stuck_repeating_brackets_costs_one_error_row_and_the_agent_keeps_answering() throws Exception {
        llm.streamed("# Commands:\n" + "[".repeat(2_048), 10, 2_048).streamed("Sorry, that went wrong.", 10, 5);

        int code = agent("first question\n", "--base-url", llm.baseUrl());

        assertThat(code).as(err.toString()).isZero();
        assertThat(count("SELECT count(*) FROM process_log WHERE name = 'command_parse' AND status = 'error'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM notes WHERE text = 'first question' AND read = 1")).isEqualTo(1);
        assertThat(terminal()).doesNotContain("StackOverflowError").doesNotContain("\tat ");

        llm.streamed(ANSWER, 10, 5).streamed("Done.", 10, 1);
        assertThat(agent("second question\n", "--base-url", llm.baseUrl())).isZero();
        assertThat(terminal()).contains("Answered.");
    }

    @Test
    void an_error_escaping_a_tick_ends_a_piped_agent_with_exit_1_and_is_logged() throws Exception {
        Launch launch = new Launch(Map.of("HOME", dir.toString()),
                () -> new DumbTerminal(new ByteArrayInputStream("hello\n".getBytes(StandardCharsets.UTF_8)), terminalOut),
                Clock.systemUTC(), false, section -> new ThrowingLlm(new StackOverflowError()));
        CommandLine cl = Cli.commandLine(launch);
        cl.setErr(new PrintWriter(err, true));

        int code = cl.execute("--config", config.toString(), "--db", db.toString());

        assertThat(code).isEqualTo(ExitCodes.FAILURE);
        assertThat(count("SELECT count(*) FROM agent_log WHERE state = 'fatal' AND error LIKE 'StackOverflowError%'"))
                .isEqualTo(1);
        assertThat(count("SELECT count(*) FROM notes WHERE text = 'hello' AND read = 0")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM runner_lock")).as("the lock is released").isZero();
    }

    @Test
    void an_error_escaping_a_tick_ends_an_interactive_agent_blocked_at_its_prompt_with_exit_1() throws Exception {
        java.io.PipedOutputStream keys = new java.io.PipedOutputStream();
        java.io.PipedInputStream input = new java.io.PipedInputStream(keys);
        Launch launch = new Launch(Map.of("HOME", dir.toString()), () -> new DumbTerminal(input, terminalOut),
                Clock.systemUTC(), true, section -> new ThrowingLlm(new OutOfMemoryError("Java heap space")));
        CommandLine cl = Cli.commandLine(launch);
        cl.setErr(new PrintWriter(err, true));
        java.util.concurrent.CompletableFuture<Integer> exit = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                cl.execute("--config", config.toString(), "--db", db.toString()));

        keys.write("hello\n".getBytes(StandardCharsets.UTF_8));
        keys.flush();   // and the input stays open: the person is still at the prompt

        assertThat(exit.get(30, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(ExitCodes.FAILURE);
        assertThat(count("SELECT count(*) FROM agent_log WHERE state = 'fatal'")).isEqualTo(1);
    }

    /** An LLM client whose every call throws {@code error}. */
    record ThrowingLlm(Error error) implements dev.hmpagent.llm.LlmClient {
        @Override
        public dev.hmpagent.llm.Completion complete(dev.hmpagent.llm.LlmRequest request,
                                                    dev.hmpagent.llm.StreamListener listener, dev.hmpagent.llm.CallCancel cancel) {
            throw error;
        }

        @Override
        public String endpoint() { return "http://throwing/v1"; }

        @Override
        public String model() { return "throwing"; }
    }

    @Test
    void ctrl_c_cancels_the_reply_in_flight_which_is_kept_and_marked_interrupted() throws Exception {
        llm.stalled("Once upon a time");
        java.io.PipedOutputStream keys = new java.io.PipedOutputStream();
        java.io.PipedInputStream input = new java.io.PipedInputStream(keys);
        java.util.concurrent.Semaphore prompts = new java.util.concurrent.Semaphore(0);
        java.io.OutputStream screen = new java.io.OutputStream() {
            @Override
            public void write(int b) {
                terminalOut.write(b);
                if (terminal().endsWith(PROMPT)) prompts.release();
            }
        };
        DumbTerminal[] made = new DumbTerminal[1];
        Launch launch = new Launch(Map.of("HOME", dir.toString()), () -> made[0] = new DumbTerminal(input, screen),
                Clock.systemUTC(), true);
        CommandLine cl = Cli.commandLine(launch);
        cl.setErr(new PrintWriter(err, true));
        java.util.concurrent.CompletableFuture<Integer> exit = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                cl.execute("--config", config.toString(), "--db", db.toString(), "--base-url", llm.baseUrl()));

        keys.write("tell me a long story\n".getBytes(StandardCharsets.UTF_8));
        keys.flush();
        llm.take();
        prompts.acquire(2);   // the REPL is reading again: Ctrl-C now is Ctrl-C at the prompt
        made[0].raise(org.jline.terminal.Terminal.Signal.INT);
        prompts.acquire();    // the prompt after the interrupt
        keys.write("/quit\n".getBytes(StandardCharsets.UTF_8));
        keys.flush();

        assertThat(exit.get(30, java.util.concurrent.TimeUnit.SECONDS)).as(err.toString()).isZero();
        // one line says it: how much arrived ("cancelled; 16 chars kept", or none yet), not a second "cut short"
        assertThat(terminal()).containsPattern("cancelled(; 16 chars kept| before any reply); your message stays unread")
                .doesNotContain("was cut short");
        // what had streamed in by the cancel is kept: all of the first chunk or, if it had not arrived yet, nothing
        assertThat(count("SELECT count(*) FROM llm_recent_responses WHERE interrupted = 1 "
                + "AND content IN ('', 'Once upon a time')")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM agent_log WHERE state = 'interrupted'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM notes WHERE text = 'tell me a long story' AND read = 0"))
                .as("a reply cut short did not answer the question: it stays queued").isEqualTo(1);
    }

    @Test
    void quitting_while_a_reply_streams_cuts_it_short_and_still_writes_the_tick() throws Exception {
        llm.stalled("Thinking hard");
        java.io.PipedOutputStream keys = new java.io.PipedOutputStream();
        java.io.PipedInputStream input = new java.io.PipedInputStream(keys);
        Launch launch = new Launch(Map.of("HOME", dir.toString()), () -> new DumbTerminal(input, terminalOut),
                Clock.systemUTC(), true);
        java.util.concurrent.CompletableFuture<Integer> exit = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                Cli.commandLine(launch).execute("--config", config.toString(), "--db", db.toString(), "--base-url", llm.baseUrl()));

        keys.write("question\n".getBytes(StandardCharsets.UTF_8));
        keys.flush();
        llm.take();
        keys.close();

        assertThat(exit.get(30, java.util.concurrent.TimeUnit.SECONDS)).isZero();
        assertThat(count("SELECT count(*) FROM agent_log WHERE state = 'interrupted'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM runner_lock")).isZero();
    }

    @Test
    void slash_commands_answer_without_calling_the_llm() throws Exception {
        int code = agent("/help\n/status\n/nonsense\n/quit\nthis line is never read\n", "--base-url", llm.baseUrl());

        assertThat(code).isZero();
        assertThat(terminal()).contains("/status").contains("safety   ACTIVE").contains("phase    waiting for event")
                .contains("tick     0").contains("tokens   session 0 · task 0 / 1M · lifetime 0")
                .contains(llm.baseUrl()).contains(db.toString())
                .contains("unknown command /nonsense (/help lists them)");
        assertThat(llm.requestCount()).isZero();
        assertThat(count("SELECT count(*) FROM notes")).isZero();
    }

    @Test
    void status_shows_the_files_tokens_by_model_with_the_cached_ones_apart() throws Exception {
        try (Store store = Store.open(db, Clock.systemUTC())) {
            dev.hmpagent.store.LlmCallsDao calls = new dev.hmpagent.store.LlmCallsDao(store);
            for (int i = 1; i <= 3; i++) {
                calls.insert(i, new dev.hmpagent.store.LlmCall(dev.hmpagent.store.LlmCall.Purpose.MAIN,
                        java.time.Instant.parse("2026-01-0" + i + "T10:00:00Z"), "test-model", llm.baseUrl(), 8_000,
                        6_000, 200, false, 900, dev.hmpagent.store.LlmCall.Outcome.OK, ""));
            }
        }

        assertThat(agent("/status\n/quit\n", "--base-url", llm.baseUrl())).isZero();

        assertThat(terminal()).contains("\n  lifetime test-model  24k in (18k cached) · 600 out · 3 calls\n")
                .as("no call this session").doesNotContain("  session  test-model");
    }

    @Test
    void a_second_agent_on_the_same_file_says_who_holds_it_and_exits_non_zero() throws Exception {
        try (Store store = Store.open(db, Clock.systemUTC())) {
            RunnerLock.forThisProcess(store).acquire();
            int code = agent("hello\n", "--base-url", llm.baseUrl());
            assertThat(code).isEqualTo(ExitCodes.IN_USE);
            assertThat(err.toString()).contains("in use by another agent").contains("pid " + ProcessHandle.current().pid())
                    .contains("since");
        }
        assertThat(count("SELECT count(*) FROM notes")).isZero();
    }

    @Test
    void a_bad_config_value_fails_at_start_naming_the_key() throws Exception {
        Files.writeString(config, "[llm]\ntemperature = 5\n");
        int code = agent("hello\n");
        assertThat(code).isEqualTo(ExitCodes.CONFIG);
        assertThat(err.toString()).contains("llm.temperature").contains("0 to 2").doesNotContain("Exception");
        assertThat(Files.exists(db)).isFalse();
    }

    @Test
    void agent_config_prints_every_value_with_its_origin_and_masks_the_key() {
        Launch launch = new Launch(Map.of("HOME", dir.toString(), "OPENAI_API_KEY", "sk-live-abcdefghijklmnop1234"),
                () -> { throw new AssertionError("config needs no terminal"); }, Clock.systemUTC(), false);
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(out, true));
        int code = cl.execute("config", "--config", config.toString(), "--db", db.toString());
        assertThat(code).isZero();
        assertThat(out.toString())
                .containsPattern("llm\\.model +  ?= test-model +\\(project file .*agent\\.toml\\)")
                .containsPattern("agent\\.db +=.*\\(flag --db\\)")
                .containsPattern("llm\\.api_key += \\*\\*\\*\\*1234 +\\(env OPENAI_API_KEY\\)")
                .contains("llm.base_url").contains("(default)")
                .doesNotContain("sk-live-abcdefghijklmnop")
                .doesNotContain("set by the LLM");
    }

    @Test
    void agent_config_shows_the_settings_the_llm_changed_and_at_which_tick() throws Exception {
        try (Store store = Store.open(db, Clock.systemUTC())) {
            new dev.hmpagent.store.SettingsDao(store).putAtTick("cycle.history_k", "8", 12);
        }
        assertThat(agent("", "config")).isZero();
        assertThat(out.toString()).containsPattern("cycle\\.history_k +\\= 8 +\\(set by the LLM at tick 12");
    }

    @Test
    void agent_note_queues_a_message_that_the_next_run_answers() throws Exception {
        int code = agent("", "note", "--priority", "2", "check", "the", "logs");
        assertThat(code).isZero();
        assertThat(out.toString()).contains("note 1 queued");
        llm.streamed("Checked.", 10, 2);
        assertThat(agent("", "--base-url", llm.baseUrl())).isZero();
        assertThat(llm.take().user()).contains("[note 1 from cli, priority 2").contains("check the logs");
    }

    /** Another process's write transaction on the agent's file, held until closed. */
    Connection writeLock() throws Exception {
        Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        c.createStatement().execute("BEGIN IMMEDIATE");
        return c;
    }

    @Test
    void a_line_typed_while_another_process_holds_the_write_lock_is_kept_and_answered_once_the_lock_is_free()
            throws Exception {
        Store.open(db, Clock.systemUTC()).close();   // the file exists and is migrated
        llm.streamed(ANSWER, 10, 5).streamed("Done.", 10, 1);
        java.io.PipedOutputStream keys = new java.io.PipedOutputStream();
        java.io.PipedInputStream input = new java.io.PipedInputStream(keys);
        java.util.concurrent.Semaphore kept = new java.util.concurrent.Semaphore(0);
        java.util.concurrent.Semaphore prompts = new java.util.concurrent.Semaphore(0);
        java.util.concurrent.CountDownLatch answered = new java.util.concurrent.CountDownLatch(1);
        java.io.OutputStream screen = new java.io.OutputStream() {
            @Override
            public void write(int b) {
                terminalOut.write(b);
                if (terminal().endsWith(PROMPT)) prompts.release();
                if (b == '\n' && terminal().contains("is kept in agent.db.inbox") && kept.availablePermits() == 0) kept.release();
                if (b == '\n' && terminal().contains("agent> Answered.")) answered.countDown();
            }
        };
        Launch launch = new Launch(Map.of("HOME", dir.toString()), () -> new DumbTerminal(input, screen),
                Clock.systemUTC(), true);
        java.util.concurrent.CompletableFuture<Integer> exit = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                Cli.commandLine(launch).execute("--config", config.toString(), "--db", db.toString(),
                        "--base-url", llm.baseUrl()));
        prompts.acquire();   // the agent runs and waits at its prompt
        try (Connection other = writeLock()) {
            keys.write("typed while locked\n".getBytes(StandardCharsets.UTF_8));
            keys.flush();
            kept.acquire();   // the REPL waited out the busy timeout and kept the line
            assertThat(Files.readString(dir.resolve("agent.db.inbox"))).contains("typed while locked");
        }
        // the lock is free: the spool retry stores the line within a second, and the agent answers it
        FakeOpenAiServer.Received asked = llm.take();
        assertThat(answered.await(30, java.util.concurrent.TimeUnit.SECONDS)).as(terminal()).isTrue();
        keys.write("/quit\n".getBytes(StandardCharsets.UTF_8));
        keys.close();
        assertThat(exit.get(30, java.util.concurrent.TimeUnit.SECONDS)).isZero();
        assertThat(count("SELECT count(*) FROM notes WHERE text = 'typed while locked' AND read = 1")).isEqualTo(1);
        assertThat(terminal()).contains("agent> Answered.").doesNotContain("press Up");
        assertThat(asked).isNotNull();
    }

    @Test
    void agent_note_while_another_process_holds_the_write_lock_keeps_the_note_and_says_what_really_happens()
            throws Exception {
        agent("", "note", "warm-up");
        out.getBuffer().setLength(0);
        try (Connection other = writeLock()) {
            assertThat(agent("", "note", "urgent", "thing")).isZero();
        }
        assertThat(out.toString()).contains("note kept in " + db + ".inbox").contains("stayed locked")
                .contains("a running agent stores it within a second").doesNotContain("retried next tick");
        llm.streamed("Seen.", 10, 1);
        assertThat(agent("", "--base-url", llm.baseUrl())).isZero();
        assertThat(llm.take().user()).contains("urgent thing").contains("warm-up");
    }

    @Test
    void help_lists_the_subcommands() {
        int code = agent("", "--help");
        assertThat(code).isZero();
        assertThat(out.toString()).contains("config").contains("note").contains("--db").contains("run")
                .contains("halt").contains("unlock").contains("status").contains("check")
                .contains("6 LLM unavailable after llm.give_up_s").contains("7 stopped or locked");
    }

    @Test
    void a_shell_command_no_rule_allows_is_asked_about_inline_and_a_y_typed_at_the_prompt_runs_it() throws Exception {
        llm.streamed("Let me count." + "\n# Commands:\n{\"cmd_id\": \"s1\", \"type\": \"shell\", "
                + "\"args\": {\"command\": \"printf approved-run\"}}", 10, 5)
                .streamed("It printed approved-run." + "\n# Commands:\n{\"type\": \"send_message\", "
                        + "\"args\": {\"text\": \"done: approved-run\"}}", 10, 5);
        java.io.PipedOutputStream keys = new java.io.PipedOutputStream();
        java.io.PipedInputStream input = new java.io.PipedInputStream(keys);
        java.util.concurrent.CountDownLatch asked = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch answered = new java.util.concurrent.CountDownLatch(1);
        java.io.OutputStream screen = new java.io.OutputStream() {
            @Override
            public void write(int b) {
                terminalOut.write(b);
                if (b == '\n' && terminal().contains("allow it? y = this once")) asked.countDown();
                if (b == '\n' && terminal().contains("agent> done: approved-run")) answered.countDown();
            }
        };
        Launch launch = new Launch(Map.of("HOME", dir.toString()), () -> new DumbTerminal(input, screen),
                Clock.systemUTC(), true);
        CommandLine cl = Cli.commandLine(launch);
        cl.setErr(new PrintWriter(err, true));
        java.util.concurrent.CompletableFuture<Integer> exit = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                cl.execute("--config", config.toString(), "--db", db.toString(), "--base-url", llm.baseUrl()));

        keys.write("print something\n".getBytes(StandardCharsets.UTF_8));
        keys.flush();
        assertThat(asked.await(30, java.util.concurrent.TimeUnit.SECONDS)).as(terminal()).isTrue();
        assertThat(terminal()).contains("the agent asks to run shell (s1): printf approved-run");
        keys.write("y\n".getBytes(StandardCharsets.UTF_8));
        keys.flush();
        assertThat(answered.await(30, java.util.concurrent.TimeUnit.SECONDS)).as(terminal()).isTrue();
        keys.write("/quit\n".getBytes(StandardCharsets.UTF_8));
        keys.close();

        assertThat(exit.get(30, java.util.concurrent.TimeUnit.SECONDS)).as(err.toString()).isZero();
        assertThat(count("SELECT count(*) FROM process_log WHERE cmd_id = 's1' AND status = 'ok' "
                + "AND result LIKE '%approved-run%'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM notes WHERE source = 'user' AND text = 'y'"))
                .as("the answer is not a message to the agent").isZero();
    }

    @Test
    void a_model_whose_block_never_reads_is_corrected_twice_then_its_text_is_shown_and_the_agent_waits()
            throws Exception {
        for (int i = 1; i <= 5; i++) {
            llm.streamed("Try " + i + ": 2 + 2 = 4.\n# Commands:\n[{\"type\": \"send_message\", \"args\": {\"text\": \"4\"}",
                    900, 20);
        }

        agent("what is 2+2?\n", "--base-url", llm.baseUrl());

        assertThat(llm.requestCount()).as("the question, then two corrections").isEqualTo(3);
        assertThat(terminal()).contains("could not be read 3 times in a row").contains("Try 3: 2 + 2 = 4.")
                .contains("waiting for your next message").doesNotContain("SAFETY_LOCKOUT").doesNotContain("ERROR_PAUSED");
        assertThat(count("SELECT count(*) FROM safety_audit")).isZero();
    }

    @Test
    void a_model_chanting_in_its_stream_is_cut_the_server_sees_the_connection_closed_and_the_model_is_told_next_time()
            throws Exception {
        java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);
        llm.chanting("Let me think. ", "I keep saying the very same thing. ", closed)
                .streamed("I was repeating myself; sorry.", 10, 5);

        int code = agent("what now?\n", "--base-url", llm.baseUrl(), "--verbose");

        assertThat(code).as(err.toString()).isZero();
        assertThat(closed.await(30, java.util.concurrent.TimeUnit.SECONDS)).as("the client closed the stream").isTrue();
        // the cut reply is the answer to the message: not asked again by itself (issue 35); the row waits unseen for
        // the next wake, which shows it to the model (CycleTest)
        assertThat(llm.requestCount()).isEqualTo(1);
        assertThat(terminal()).contains("started repeating itself and was cut there")
                .contains("not asked again until your next message");
        assertThat(count("SELECT count(*) FROM process_log WHERE name = 'chanting' AND wake = 0 AND seen_tick IS NULL"))
                .isEqualTo(1);
        assertThat(count("SELECT length(content) FROM llm_recent_responses WHERE tick_id = 1")).isLessThan(200);
    }
}
