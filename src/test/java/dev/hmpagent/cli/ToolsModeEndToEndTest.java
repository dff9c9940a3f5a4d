package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.llm.ToolCall;
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

/** {@code commands = "tools"} in agent.toml, through the real command line, against the fake OpenAI server. */
@Timeout(60)
class ToolsModeEndToEndTest {
    private static final ToolCall SAY = new ToolCall("call_1", "send_message", "{\"text\": \"hi there\"}");
    private static final ToolCall DIARY = new ToolCall("call_2", "use",
            "{\"type\": \"diary_entry\", \"args\": {\"text\": \"met someone\"}}");
    /** help informs: its result wakes the LLM once, so a second request comes. */
    private static final ToolCall HELP = new ToolCall("call_3", "help", "{\"type\": \"diary_entry\"}");

    @TempDir Path dir;
    FakeOpenAiServer llm;
    Path db;
    Path config;

    @BeforeEach
    void start() throws Exception {
        llm = new FakeOpenAiServer();
        db = dir.resolve("agent.db");
        config = dir.resolve("agent.toml");
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\ncommands = \"tools\"\n");
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
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); ResultSet rs = c.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    @Test
    void streamed_tool_calls_become_process_log_rows_that_run_and_the_reply_keeps_them_as_a_block() throws Exception {
        assertThat(cli("note", "hello").code()).isZero();
        llm.streamedToolCalls("Answering.", SAY, DIARY, HELP).streamed("Nothing more.", 10, 1);

        Run run = cli("run", "--hz", "50", "--max-ticks", "10", "--json");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("\"event\":\"message\"").contains("hi there");
        assertThat(text("SELECT group_concat(name || ':' || status, ' ') FROM (SELECT * FROM process_log ORDER BY id)"))
                .isEqualTo("send_message:ok diary_entry:ok help:ok");
        assertThat(text("SELECT text FROM diary_entries")).isEqualTo("met someone");
        assertThat(text("SELECT content FROM llm_recent_responses WHERE role = 'assistant' ORDER BY id LIMIT 1"))
                .startsWith("Answering.\n\n# Commands:\n").contains("\"send_message\"", "\"diary_entry\"", "\"c-1\"");

        assertThat(text("SELECT s.text FROM tick_prompts p JOIN prompt_sections s ON s.hash = p.hash"
                + " WHERE p.tick_id = 1 AND p.context = 0")).as("the prompt kept is the one sent")
                .contains("call the tools").doesNotContain("# Commands:");
        JsonNode first = llm.take().body();
        JsonNode tools = first.path("tools");
        assertThat(tools.size()).isBetween(2, 128);
        List<String> names = new ArrayList<>();
        tools.forEach(t -> names.add(t.path("function").path("name").asText()));
        assertThat(names).contains("send_message", "diary_entry").endsWith("use");
        assertThat(first.path("messages").get(0).path("content").asText()).as("context 0 without the block contract")
                .doesNotContain("# Commands:").contains("call the tools");
        JsonNode second = llm.take().body();
        assertThat(second.path("tools")).as("the same tools: a stable prefix").isEqualTo(tools);
        assertThat(second.path("messages").get(1).path("content").asText()).as("contexts 1 and 2 show the calls as text")
                .contains("hi there", "met someone");
    }

    @Test
    void a_server_that_refuses_tools_is_told_once_and_the_entry_takes_blocks_for_the_run() throws Exception {
        assertThat(cli("note", "hello").code()).isZero();
        llm.status(400, "{\"error\":{\"message\":\"this model does not support tools\"}}")
                .streamed(RunEndToEndTest.SAY_HI, 10, 5).streamed("Nothing more.", 10, 1);

        Run run = cli("run", "--hz", "50", "--max-ticks", "10");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out() + run.err()).contains("refused native tool calls", "llm.commands = \"block\"");
        assertThat(text("SELECT name || ':' || status FROM process_log")).isEqualTo("send_message:ok");
        assertThat(llm.take().body().has("tools")).isTrue();
        JsonNode retried = llm.take().body();
        assertThat(retried.has("tools")).isFalse();
        assertThat(retried.path("messages").get(0).path("content").asText()).contains("# Commands:");
        assertThat(text("SELECT s.text FROM tick_prompts p JOIN prompt_sections s ON s.hash = p.hash"
                + " WHERE p.tick_id = 1 AND p.context = 0")).as("the prompt kept is the one that got the answer")
                .contains("# Commands:");
    }

    @Test
    void a_commands_value_that_is_neither_block_nor_tools_nor_json_is_one_line_naming_the_key_and_the_choices() {
        Run run;
        try {
            Files.writeString(config, "[llm]\nmodel = \"test-model\"\ncommands = \"native\"\n");
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        run = cli("run", "--hz", "50", "--max-ticks", "1");

        assertThat(run.code()).isEqualTo(3);
        assertThat(run.err().strip().lines().toList()).singleElement().asString().contains("llm.commands", "native",
                "use one of: block, tools, json");
    }
}
