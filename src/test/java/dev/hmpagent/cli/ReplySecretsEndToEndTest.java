package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import static org.assertj.core.api.Assertions.assertThat;

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
import java.sql.ResultSet;
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

/**
 * A secret in a reply (a curl header written to a config file): the command runs with it, and no stored copy of the reply, no stored prompt, no {@code agent log}
 * output and no later request to the LLM holds it. A real agent, piped, talking to a scripted LLM over a socket.
 */
@Timeout(60)
class ReplySecretsEndToEndTest {
    static final String TOKEN = "sk-live-abcdef1234567890";
    /** The configured key: nothing in its shape gives it away, only that the agent knows it. */
    static final String KNOWN_KEY = "plainlettersonlykeyvalue";
    static final String HEADER = "Authorization: Bearer " + TOKEN;
    static final String REPLY = "I will call the API with my key " + KNOWN_KEY + ".\n"
            + "# Commands:\n```json\n[{\"cmd_id\": \"c-1\", \"type\": \"file_write\", \"args\": {\"path\":"
            + " \"curl.cfg\", \"content\": \"header = \\\"" + HEADER + "\\\"\"}}]\n```\n# End commands\n";

    @TempDir Path dir;
    FakeOpenAiServer llm;
    Path db;
    Path config;
    final ByteArrayOutputStream terminalOut = new ByteArrayOutputStream();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    @BeforeEach
    void start() throws IOException {
        llm = new FakeOpenAiServer();
        db = dir.resolve("agent.db");
        config = dir.resolve("agent.toml");
        Files.createDirectories(dir.resolve("work"));
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n[files]\nroots = [\"" + dir.resolve("work") + "\"]\n");
    }

    @AfterEach
    void stop() {
        llm.close();
    }

    int agent(String input, String... args) {
        out = new StringWriter();
        err = new StringWriter();
        Launch launch = new Launch(Map.of("HOME", dir.toString(), "OPENAI_API_KEY", KNOWN_KEY),
                () -> new DumbTerminal(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), terminalOut),
                Clock.systemUTC(), false);
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of("--config", config.toString(), "--db", db.toString()));
        all.addAll(List.of(args));
        return cl.execute(all.toArray(String[]::new));
    }

    List<String> column(String sql) throws Exception {
        List<String> values = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); ResultSet rs = c.createStatement().executeQuery(sql)) {
            while (rs.next()) values.add(rs.getString(1));
        }
        return values;
    }

    @Test
    void the_command_runs_with_the_secret_but_every_stored_copy_and_later_prompt_shows_it_redacted() throws Exception {
        llm.streamed(REPLY, 900, 60).streamed("The hash is in.", 950, 5);

        assertThat(agent("", "note", "hash the header")).as(err.toString()).isZero();
        assertThat(agent("", "run", "--until-idle", "--hz", "20", "--base-url", llm.baseUrl())).as(err.toString()).isZero();
        // the reply wrote a file without ending its turn (issue 33): the next request, with context 1, follows
        String printed = out.toString() + err;

        // the command ran with the real value: the file it wrote holds the real header
        assertThat(column("SELECT status FROM process_log WHERE cmd_id = 'c-1'")).as(printed).containsExactly("ok");
        assertThat(Files.readString(dir.resolve("work/curl.cfg"))).isEqualTo("header = \"" + HEADER + "\"");
        assertThat(llm.requestCount()).isEqualTo(2);
        FakeOpenAiServer.Received first = llm.take();
        FakeOpenAiServer.Received second = llm.take();
        assertThat(first.request().getHeaders().get("Authorization")).isEqualTo("Bearer " + KNOWN_KEY);

        List<String> replies = column("SELECT content FROM llm_recent_responses ORDER BY id");
        assertThat(replies.get(0)).contains("Bearer [redacted]").contains("my key [redacted]");
        List<String> stored = new ArrayList<>(replies);
        stored.addAll(column("SELECT coalesce(reflection, '') || coalesce(new_ideas, '') || coalesce(refined_ideas, '')"
                + " FROM llm_recent_responses"));
        stored.addAll(column("SELECT text FROM prompt_sections"));
        assertThat(stored).noneSatisfy(s -> assertThat(s).contains(TOKEN))
                .noneSatisfy(s -> assertThat(s).contains(KNOWN_KEY));

        String sent = second.body().toString();
        assertThat(sent).as("context 1 shows the reply again, redacted").contains("Bearer [redacted]")
                .doesNotContain(TOKEN).doesNotContain(KNOWN_KEY);

        assertThat(agent("", "log", "--tick", "2", "--prompt")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("Bearer [redacted]").doesNotContain(TOKEN).doesNotContain(KNOWN_KEY);
        assertThat(agent("", "log")).as(err.toString()).isZero();
        assertThat(out.toString()).doesNotContain(TOKEN).doesNotContain(KNOWN_KEY);
        assertThat(printed).as("what the headless agent printed").doesNotContain(TOKEN).doesNotContain(KNOWN_KEY);
    }

    @Test
    void a_file_holding_the_agents_own_key_is_read_without_it_reaching_the_file_or_the_llm() throws Exception {
        Files.writeString(dir.resolve("work/.env"), "OPENAI_API_KEY=" + KNOWN_KEY + "\nREGION=eu-west-1\n");
        llm.streamed("Let me read the settings.\n# Commands:\n[{\"cmd_id\": \"r-1\", \"type\": \"file_read\","
                + " \"args\": {\"path\": \".env\"}}]\n# End commands\n", 900, 40).streamed("Read them.", 950, 5);

        assertThat(agent("", "note", "what is in .env?")).as(err.toString()).isZero();
        // what file_read returns wakes the LLM once: the second request carries it
        assertThat(agent("", "run", "--until-idle", "--hz", "20", "--base-url", llm.baseUrl())).as(err.toString()).isZero();

        List<String> result = column("SELECT result FROM process_log WHERE cmd_id = 'r-1'");
        assertThat(result).hasSize(1);
        assertThat(result.get(0)).contains("OPENAI_API_KEY=[redacted]").contains("REGION=eu-west-1")
                .doesNotContain(KNOWN_KEY);
        assertThat(llm.requestCount()).isEqualTo(2);
        llm.take();
        assertThat(llm.take().body().toString()).as("the result in the next prompt")
                .contains("REGION=eu-west-1").doesNotContain(KNOWN_KEY);
    }
}
