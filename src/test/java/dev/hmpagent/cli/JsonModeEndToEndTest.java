package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hmpagent.runtime.Launch;
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
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code commands = "json"} in agent.toml, through the real command line and cycle, against the fake OpenAI server. */
@Timeout(60)
class JsonModeEndToEndTest {
    private static final String SAY_AND_NOTE = "{\"thought\": \"Answering.\", \"commands\": ["
            + "{\"type\": \"send_message\", \"args\": {\"text\": \"hi there\"}},"
            + " {\"type\": \"diary_entry\", \"args\": {\"text\": \"met someone\", \"tags\": null, \"priority\": null}},"
            + " {\"type\": \"help\", \"args\": {\"type\": \"diary_entry\"}}]}";

    @TempDir Path dir;
    FakeOpenAiServer llm;
    static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
    Path db;
    Path config;

    @BeforeEach
    void start() throws Exception {
        llm = new FakeOpenAiServer();
        db = dir.resolve("agent.db");
        config = dir.resolve("agent.toml");
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\ncommands = \"json\"\n");
        Store.open(db, Clock.systemUTC()).close();
    }

    @AfterEach
    void stop() {
        llm.close();
    }

    record Run(int code, String out, String err) { }

    Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Launch launch = new Launch(Map.of("HOME", dir.toString()),
                () -> new DumbTerminal(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()),
                Clock.systemUTC(), false, dev.hmpagent.runtime.LlmChain::client, (signal, handler) -> { });
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--config", config.toString(), "--db", db.toString(), "--base-url", llm.baseUrl()));
        return new Run(cl.execute(all.toArray(String[]::new)), out.toString(), err.toString());
    }

    String text(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
             ResultSet rs = c.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    @Test
    void a_json_reply_s_commands_become_process_log_rows_that_run_and_the_reply_keeps_them_as_a_block()
            throws Exception {
        assertThat(cli("note", "hello").code()).isZero();
        llm.streamed(SAY_AND_NOTE, 10, 30).streamed("{\"thought\": \"Nothing more.\", \"commands\": []}", 10, 5);

        Run run = cli("run", "--hz", "50", "--max-ticks", "10", "--json");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("\"event\":\"message\"").contains("hi there");
        assertThat(text("SELECT group_concat(name || ':' || status, ' ') FROM (SELECT * FROM process_log ORDER BY id)"))
                .isEqualTo("send_message:ok diary_entry:ok help:ok");
        assertThat(text("SELECT text || '|' || coalesce(tags, '') FROM diary_entries")).isEqualTo("met someone|");
        assertThat(text("SELECT content FROM llm_recent_responses WHERE role = 'assistant' ORDER BY id LIMIT 1"))
                .startsWith("Answering.\n\n# Commands:\n").contains("\"send_message\"", "\"diary_entry\"", "\"c-1\"")
                .doesNotContain("\"thought\"", "null");
        assertThat(text("SELECT content FROM llm_recent_responses WHERE role = 'assistant' ORDER BY id DESC LIMIT 1"))
                .isEqualTo("Nothing more.");

        JsonNode first = llm.take().body();
        JsonNode format = first.path("response_format");
        assertThat(format.path("type").asText()).isEqualTo("json_schema");
        assertThat(format.path("json_schema").path("name").asText()).isEqualTo("hmp_reply");
        JsonNode items = format.path("json_schema").path("schema").path("properties").path("commands").path("items");
        List<String> types = new ArrayList<>();
        items.path("anyOf").forEach(i -> types.add(i.path("properties").path("type").path("enum").get(0).asText()));
        assertThat(types).contains("send_message", "diary_entry", "help", "table_insert");
        assertThat(first.has("tools")).isFalse();
        assertThat(first.path("messages").get(0).path("content").asText()).as("context 0 asks for the JSON object")
                .contains("Reply format: one JSON object").doesNotContain("# Commands:");
        JsonNode second = llm.take().body();
        assertThat(second.path("response_format")).as("the same schema: a stable prefix").isEqualTo(format);
        assertThat(second.path("messages").get(1).path("content").asText()).as("contexts 1 and 2 show the commands")
                .contains("hi there", "met someone");
    }

    @Test
    void the_prompt_kept_and_the_judges_question_follow_the_json_context_0_that_was_sent() throws Exception {
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\ncommands = \"json\"\n[stagnation]\nmethod = \"llm\"\n"
                + "[cycle]\nautonomous = true\n");
        llm.streamed("{\"thought\": \"Apples grow on trees in the orchard.\", \"commands\": []}", 10, 5)
                .streamed("{\"thought\": \"Rivers carry boats past the old mill.\", \"commands\": []}", 10, 5);

        Run run = cli("run", "--hz", "50", "--max-ticks", "2");

        assertThat(run.code()).as(run.err()).isZero();
        llm.take();
        JsonNode second = llm.take().body();
        String zero = second.path("messages").get(0).path("content").asText();
        assertThat(zero).contains("Reply format: one JSON object");
        assertThat(text("SELECT s.text FROM tick_prompts p JOIN prompt_sections s ON s.hash = p.hash"
                + " WHERE p.tick_id = 2 AND p.context = 0")).as("the prompt kept is the one sent").isEqualTo(zero);
        assertThat(llm.comparisonBodies).hasSize(1);
        JsonNode judge = JSON.readTree(llm.comparisonBodies.get(0));
        assertThat(judge.path("messages").get(0).path("content").asText())
                .as("the judge's question follows the request as sent, so the server's cache holds").isEqualTo(zero);
        assertThat(judge.has("response_format")).as("the judge's answer is not held to the reply schema").isFalse();
    }

    @Test
    void a_person_answered_by_a_thought_alone_is_shown_the_thought_not_the_json() throws Exception {
        assertThat(cli("note", "what is 2+2?").code()).isZero();
        llm.streamed("{\"thought\": \"2 + 2 = 4\", \"commands\": []}", 10, 5);

        Run run = cli("run", "--hz", "50", "--max-ticks", "1", "--json");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("2 + 2 = 4").doesNotContain("\\\"thought\\\"");
        assertThat(text("SELECT content FROM llm_recent_responses WHERE role = 'assistant'")).isEqualTo("2 + 2 = 4");
    }

    @Test
    void a_server_that_refuses_the_schema_is_told_once_and_the_same_tick_asks_again_for_a_block() throws Exception {
        assertThat(cli("note", "hello").code()).isZero();
        llm.status(400, "{\"error\":{\"message\":\"Invalid parameter: 'response_format' of type 'json_schema' is not"
                + " supported with this model\"}}").streamed(RunEndToEndTest.SAY_HI, 10, 5);

        Run run = cli("run", "--hz", "50", "--max-ticks", "10");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat((run.out() + run.err()).lines().filter(l -> l.contains("refused replies kept to a JSON schema")))
                .singleElement().asString().contains("test-model at", "(HTTP 400): it gets # Commands: blocks for"
                        + " the rest of this run; set llm.commands = \"block\" to stop asking for them");
        assertThat(text("SELECT group_concat(name || ':' || status, ' ') FROM process_log"))
                .isEqualTo("send_message:ok");
        assertThat(text("SELECT group_concat(tick_id || ':' || state || ':' || coalesce(error, ''), ' ') FROM agent_log"))
                .as("one tick, the refusal no error of it").isEqualTo("1:thought:");
        assertThat(llm.take().body().has("response_format")).isTrue();
        JsonNode retried = llm.take().body();
        assertThat(retried.has("response_format")).isFalse();
        assertThat(retried.path("messages").get(0).path("content").asText()).contains("# Commands:");
    }
}
