package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.runtime.Launch;
import dev.hmpagent.testing.FakeOpenAiServer;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
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
 * {@code agent mcp serve} in its own JVM, driven by the MCP Java SDK's own client over stdio, on a file a real agent
 * wrote one tick into: the tools are note, status, log and halt (no unlock), and each does what its command does.
 */
@Timeout(120)
class McpServeEndToEndTest {
    @TempDir Path dir;
    Path db;
    Path config;
    FakeOpenAiServer llm;
    McpSyncClient client;

    @BeforeEach
    void oneTick() throws Exception {
        db = dir.resolve("agent.db");
        config = dir.resolve("agent.toml");
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n");
        llm = new FakeOpenAiServer();
        llm.streamed("Hello from the agent.", 120, 8);
        StringWriter err = new StringWriter();
        Launch launch = new Launch(Map.of("HOME", dir.toString()), () -> new DumbTerminal(
                new ByteArrayInputStream("hello agent\n".getBytes(StandardCharsets.UTF_8)), new ByteArrayOutputStream()),
                Clock.systemUTC(), false);
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(new StringWriter(), true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute("--config", config.toString(), "--db", db.toString(), "--base-url", llm.baseUrl(), "-q");
        assertThat(code).as(err.toString()).isZero();
        assertThat(count("SELECT count(*) FROM agent_log")).isEqualTo(1);
    }

    @AfterEach
    void stop() {
        if (client != null) client.closeGracefully();
        llm.close();
    }

    /** A real {@code agent mcp serve} on the file, initialized. */
    McpSyncClient serve() {
        ServerParameters server = ServerParameters.builder(Path.of(System.getProperty("java.home"), "bin", "java")
                        .toString())
                .args("-cp", System.getProperty("java.class.path"), Main.class.getName(), "mcp", "serve",
                        "--db", db.toString(), "--config", config.toString())
                .build();
        client = McpClient.sync(new StdioClientTransport(server, new JacksonMcpJsonMapper(new ObjectMapper())))
                .requestTimeout(Duration.ofSeconds(60)).build();
        client.initialize();
        return client;
    }

    static String text(CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    CallToolResult call(String tool, Map<String, Object> arguments) {
        return client.callTool(new McpSchema.CallToolRequest(tool, arguments));
    }

    @Test
    void a_peer_lists_the_four_tools_sends_a_note_and_reads_the_status_and_the_log() throws Exception {
        serve();
        assertThat(client.getServerInfo().name()).isEqualTo("hmp-agent");
        assertThat(client.listTools().tools()).extracting(McpSchema.Tool::name)
                .containsExactlyInAnyOrder("note", "status", "log", "halt");

        CallToolResult note = call("note", Map.of("text", "the build is red", "priority", 2, "tags", "ops"));
        assertThat(note.isError()).as(text(note)).isFalse();
        assertThat(text(note)).startsWith("note ").contains("queued in");
        assertThat(rows("SELECT source || '|' || tags || '|' || priority FROM notes WHERE text = 'the build is red'"))
                .containsExactly("peer|mcp,ops|2");

        CallToolResult status = call("status", Map.of());
        assertThat(status.isError()).isFalse();
        JsonNode seen = new ObjectMapper().readTree(text(status));
        assertThat(seen.path("safety_state").asText()).isEqualTo("ACTIVE");
        assertThat(seen.path("last_tick").asLong()).isEqualTo(1);
        assertThat(seen.path("pending_notes").asLong()).as("the peer's note waits").isEqualTo(1);

        assertThat(text(call("log", Map.of()))).contains("Hello from the agent.");
        String prompt = text(call("log", Map.of("tick", 1, "prompt", true)));
        assertThat(prompt).startsWith("--- system (context 0) ---").contains("hello agent");
    }

    @Test
    void halt_stops_the_agent_as_agent_halt_does_and_unlock_and_bad_arguments_are_errors() throws Exception {
        serve();

        CallToolResult halt = call("halt", Map.of("reason", "spending tokens on a dead end"));
        assertThat(halt.isError()).as(text(halt)).isFalse();
        assertThat(text(halt)).contains("STOPPED(halt)").contains("agent unlock");
        assertThat(rows("SELECT state || '|' || coalesce(reason, '') FROM safety_state")).containsExactly("STOPPED|halt");
        assertThat(rows("SELECT event || '|' || from_state || '|' || to_state || '|' || detail || '|' || pid"
                + " FROM safety_audit")).singleElement().asString()
                .startsWith("halt|ACTIVE|STOPPED(halt)|peer over MCP: spending tokens on a dead end|")
                .doesNotEndWith("|" + ProcessHandle.current().pid());
        JsonNode seen = new ObjectMapper().readTree(text(call("status", Map.of())));
        assertThat(seen.path("safety_state").asText()).isEqualTo("STOPPED");
        assertThat(seen.path("stop_reason").asText()).isEqualTo("halt");

        CallToolResult bad = call("log", Map.of("count", 0));
        assertThat(bad.isError()).isTrue();
        assertThat(text(bad)).isEqualTo("bad arguments: log: \"count\" must be a whole number from 1 to 200 (it was 0)");
        CallToolResult noTick = call("log", Map.of("tick", 9));
        assertThat(noTick.isError()).isTrue();
        assertThat(text(noTick)).contains("there is no tick 9").contains("(exit 5)");
        assertThat(call("status", Map.of()).isError()).as("the server goes on after a failed call").isFalse();

        assertThat(unlockFails()).isTrue();
        assertThat(rows("SELECT state FROM safety_state")).containsExactly("STOPPED");
    }

    @Test
    void a_peer_s_2_mb_note_and_its_flood_of_notes_are_refused_and_not_stored() throws Exception {
        serve();
        CallToolResult big = call("note", Map.of("text", "x".repeat(2 * 1024 * 1024)));
        assertThat(big.isError()).isTrue();
        assertThat(text(big)).startsWith("note refused: it is 2,097,152 bytes, over the 65,536-byte (64 KB) limit")
                .doesNotContain("\n");
        assertThat(count("SELECT count(*) FROM notes WHERE length(text) > 65536")).isZero();

        long start = System.nanoTime();
        List<String> refusals = new ArrayList<>();
        int sent = 40;
        for (int i = 0; i < sent; i++) {
            CallToolResult r = call("note", Map.of("text", "flood " + i));
            if (Boolean.TRUE.equals(r.isError())) refusals.add(text(r));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long stored = count("SELECT count(*) FROM notes WHERE text LIKE 'flood %'");
        assertThat(stored).as("what was answered ok is what was stored").isEqualTo(sent - refusals.size());
        // ten at once, then one a second: however slow this machine, never more than that
        assertThat((double) stored).isLessThanOrEqualTo(10 + Math.ceil(seconds));
        if (seconds < 25) assertThat(refusals).isNotEmpty();
        assertThat(refusals).allSatisfy(r -> assertThat(r).startsWith("note refused: this peer sent more than 10"
                + " notes in a row").containsPattern("retry in \\d\\.\\d s$"));
    }

    /** Calling a tool named unlock is a protocol error: there is no such tool. */
    boolean unlockFails() {
        try {
            CallToolResult r = call("unlock", Map.of());
            return Boolean.TRUE.equals(r.isError());
        } catch (RuntimeException expected) {
            return String.valueOf(expected.getMessage()).contains("unlock")
                    || String.valueOf(expected.getMessage()).contains("Unknown tool");
        }
    }

    long count(String sql) throws Exception {
        return Long.parseLong(rows(sql).get(0));
    }

    List<String> rows(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); PreparedStatement ps = c.prepareStatement(sql);
             ResultSet rs = ps.executeQuery()) {
            List<String> rows = new ArrayList<>();
            while (rs.next()) rows.add(rs.getString(1));
            return rows;
        }
    }
}
