package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.testing.FakeOpenAiServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code agent log} against a file a real agent wrote, piped, talking to a scripted LLM over a socket. */
@Timeout(60)
class LogCommandEndToEndTest {
    /** Three ticks: the note, the help it asked for, the help it asked for next (asked-for information wakes once). */
    static final String FIRST = """
            The user said hello. I will greet them.

            # Commands:
            ```json
            [{"cmd_id": "c-1", "type": "send_message", "args": {"text": "Hello!"}},
             {"cmd_id": "c-2", "type": "help", "args": {"type": "diary_entry"}}]
            ```
            # End commands
            """;
    static final String SECOND = "Greeted.\n# Commands:\n[{\"cmd_id\": \"c-3\", \"type\": \"help\", "
            + "\"args\": {\"type\": \"memory_add\"}}]\n# End commands";
    static final String THIRD = "Nothing more to do.";

    @TempDir Path dir;
    FakeOpenAiServer llm;
    Path db;
    Path config;
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    final ObjectMapper json = new ObjectMapper();

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
        out = new StringWriter();
        err = new StringWriter();
        Launch launch = new Launch(Map.of("HOME", dir.toString()),
                () -> new DumbTerminal(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
                        new ByteArrayOutputStream()), Clock.systemUTC(), false);
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of("--config", config.toString(), "--db", db.toString()));
        all.addAll(List.of(args));
        return cl.execute(all.toArray(String[]::new));
    }

    /** Runs the agent for three ticks; returns the three requests the LLM server got. */
    List<FakeOpenAiServer.Received> threeTicks() throws Exception {
        llm.streamed(FIRST, 812, 95).streamed(SECOND, 900, 20).streamed(THIRD, 950, 5);
        assertThat(agent("hello agent\n", "--base-url", llm.baseUrl())).as(err.toString()).isZero();
        assertThat(llm.requestCount()).isEqualTo(3);
        return List.of(llm.take(), llm.take(), llm.take());
    }

    long count(String sql, Object... params) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) ps.setObject(i + 1, params[i]);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    void execute(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    @Test
    void the_prompt_of_a_tick_is_printed_exactly_as_the_llm_server_received_it() throws Exception {
        List<FakeOpenAiServer.Received> sent = threeTicks();

        for (int tick = 1; tick <= 3; tick++) {
            FakeOpenAiServer.Received r = sent.get(tick - 1);
            assertThat(agent("", "log", "--tick", String.valueOf(tick), "--prompt")).as(err.toString()).isZero();
            assertThat(out.toString()).isEqualTo("--- system (context 0) ---\n" + r.system() + "\n"
                    + "--- user (contexts 6, 3, 1, 2, 4, 5) ---\n" + r.user() + "\n");
        }

        assertThat(agent("", "log", "--tick", "2", "--prompt", "--json")).isZero();
        JsonNode printed = json.readTree(out.toString());
        assertThat(printed.path("tick_id").asLong()).isEqualTo(2);
        assertThat(printed.path("messages")).isEqualTo(sent.get(1).body().path("messages"));
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void context_0_is_stored_once_for_three_ticks() throws Exception {
        List<FakeOpenAiServer.Received> sent = threeTicks();

        assertThat(sent.get(2).system()).isEqualTo(sent.get(0).system());
        assertThat(count("SELECT count(*) FROM prompt_sections WHERE text = ?", sent.get(0).system())).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM tick_prompts WHERE context = 0")).isEqualTo(3);
        assertThat(count("SELECT count(DISTINCT hash) FROM tick_prompts WHERE context = 0")).isEqualTo(1);
    }

    @Test
    void the_log_shows_the_last_ticks_newest_last_one_line_each() throws Exception {
        threeTicks();

        assertThat(agent("", "log", "-n", "2")).as(err.toString()).isZero();

        List<String> lines = out.toString().lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).startsWith("tick 2  ").contains("  thought  new results  900+20 tokens  commands 1 ok, 0 failed  Greeted.");
        assertThat(lines.get(1)).startsWith("tick 3  ").contains("950+5 tokens  no commands  Nothing more to do.");

        assertThat(agent("", "log")).isZero();
        assertThat(out.toString().lines()).hasSize(3).first().asString()
                .startsWith("tick 1  ").contains("new message").contains("commands 2 ok, 0 failed")
                .endsWith("The user said hello. I will greet them.");
    }

    @Test
    void json_lines_carry_the_timestamp_the_tick_id_and_the_reply() throws Exception {
        threeTicks();

        assertThat(agent("", "log", "--json")).isZero();

        List<JsonNode> rows = new ArrayList<>();
        for (String line : out.toString().lines().toList()) rows.add(json.readTree(line));
        assertThat(rows).extracting(r -> r.path("tick_id").asLong()).containsExactly(1L, 2L, 3L);
        assertThat(rows).allSatisfy(r -> {
            assertThat(java.time.Instant.parse(r.path("timestamp").asText())).isNotNull();
            assertThat(r.path("outcome").asText()).isEqualTo("thought");
            assertThat(r.path("prompt_stored").asBoolean()).isTrue();
        });
        assertThat(rows.get(0).path("reply").asText()).isEqualTo(FIRST);
        assertThat(rows.get(0).path("prompt_tokens").asInt()).isEqualTo(812);
    }

    @Test
    void the_prompt_tokens_the_servers_cache_served_are_recorded_per_call_and_shown_with_their_tick() throws Exception {
        llm.streamed(FIRST, 812, 95, 768).streamed(SECOND, 900, 20, 0).streamed(THIRD, 950, 5);
        assertThat(agent("hello agent\n", "--base-url", llm.baseUrl())).as(err.toString()).isZero();
        assertThat(count("SELECT cached_tokens FROM llm_calls WHERE tick_id = 1 AND purpose = 'main'")).isEqualTo(768);
        assertThat(count("SELECT model = 'test-model' AND prompt_tokens = 812 AND completion_tokens = 95 "
                + "AND outcome = 'ok' FROM llm_calls WHERE tick_id = 1")).isEqualTo(1);

        assertThat(agent("", "log")).isZero();
        List<String> lines = out.toString().lines().toList();
        assertThat(lines.get(0)).contains("  812+95 tokens (768 cached)  commands 2 ok");
        assertThat(lines.get(1)).contains("  900+20 tokens  commands");

        assertThat(agent("", "log", "--json", "-n", "3")).isZero();
        List<JsonNode> rows = new ArrayList<>();
        for (String line : out.toString().lines().toList()) rows.add(json.readTree(line));
        assertThat(rows).extracting(r -> r.path("cached_tokens").asLong()).containsExactly(768L, 0L, 0L);
    }

    @Test
    void one_tick_shows_its_whole_reply_indented() throws Exception {
        threeTicks();

        assertThat(agent("", "log", "--tick", "1")).isZero();

        assertThat(out.toString()).startsWith("tick 1  ").contains("\n  reply:\n    The user said hello. I will greet them.\n")
                .contains("\n    # Commands:\n").contains("  prompt: agent log --tick 1 --prompt");
    }

    @Test
    void a_tick_without_a_stored_prompt_or_no_such_tick_is_one_line_and_exit_5() throws Exception {
        threeTicks();
        execute("DELETE FROM tick_prompts WHERE tick_id = 1");   // as a tick of an older hmp-agent
        execute("INSERT INTO agent_log(tick_id, started_at, ended_at, duration_ms, state, wake_reason, llm_called, error) "
                + "VALUES (4, '2026-11-21T10:00:00Z', '2026-11-21T10:00:01Z', 1000, 'error', 'new message', 0, 'boom')");

        assertThat(agent("", "log", "--tick", "1", "--prompt")).isEqualTo(ExitCodes.DATABASE);
        assertThat(err.toString()).isEqualTo("agent: tick 1 has no stored prompt: it ran before this hmp-agent stored prompts;"
                + " agent log shows which ticks have one\n");
        assertThat(out.toString()).isEmpty();

        assertThat(agent("", "log", "--tick", "4", "--prompt")).isEqualTo(ExitCodes.DATABASE);
        assertThat(err.toString()).contains("tick 4 has no stored prompt: it made no LLM call (outcome error)")
                .hasLineCount(1);

        assertThat(agent("", "log", "--tick", "9", "--prompt")).isEqualTo(ExitCodes.DATABASE);
        assertThat(err.toString()).contains("there is no tick 9").contains("from 1 to 4").hasLineCount(1);
    }

    @Test
    void a_missing_file_is_named_and_not_created() {
        assertThat(agent("", "log")).isEqualTo(ExitCodes.DATABASE);

        assertThat(err.toString()).contains(db.toString()).contains("does not exist").hasLineCount(1);
        assertThat(db).doesNotExist();
        assertThat(dir.resolve("agent.db-wal")).doesNotExist();
        assertThat(dir.resolve("agent.db-shm")).doesNotExist();
    }

    @Test
    void an_older_file_is_not_migrated_but_the_person_is_told_to_start_the_agent_once() throws Exception {
        threeTicks();
        execute("DELETE FROM schema_version WHERE version = (SELECT max(version) FROM schema_version)");
        long version = count("SELECT max(version) FROM schema_version");

        assertThat(agent("", "log")).isEqualTo(ExitCodes.DATABASE);

        assertThat(err.toString()).contains("start the agent once").hasLineCount(1);
        assertThat(count("SELECT max(version) FROM schema_version")).as("nothing migrated").isEqualTo(version);
    }

    @Test
    void the_log_reads_while_another_process_holds_the_write_lock() throws Exception {
        threeTicks();
        try (Connection writer = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = writer.createStatement()) {
            st.execute("BEGIN IMMEDIATE");
            st.execute("INSERT INTO notes(text) VALUES ('uncommitted')");
            long started = System.nanoTime();

            assertThat(agent("", "log", "-n", "1")).as(err.toString()).isZero();
            assertThat(agent("", "log", "--tick", "3", "--prompt")).as(err.toString()).isZero();

            assertThat((System.nanoTime() - started) / 1_000_000).as("no wait for the lock (busy timeout 5 s)").isLessThan(4_000);
            st.execute("ROLLBACK");
        }
    }

    @Test
    void usage_mistakes_are_exit_2() {
        assertThat(agent("", "log", "--prompt")).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("--prompt needs --tick N");
        assertThat(agent("", "log", "-n", "0")).isEqualTo(ExitCodes.USAGE);
        assertThat(agent("", "log", "--tick", "1", "--follow")).isEqualTo(ExitCodes.USAGE);
    }
}
