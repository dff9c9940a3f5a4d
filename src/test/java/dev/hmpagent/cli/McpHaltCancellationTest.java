package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.runtime.Launch;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeOpenAiServer;
import dev.hmpagent.testing.McpReferenceServers;
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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A halt during a long MCP tool call cancels it with the protocol's cancellation before the server's process tree is
 * killed: a relay between the agent and {@code @modelcontextprotocol/server-everything} (a few lines of node that copy
 * lines both ways) records every line the agent sent, and the {@code notifications/cancelled} for the call's request
 * id is among them.
 */
@Timeout(120)
class McpHaltCancellationTest {
    /** Copies stdin to the server's stdin and the server's stdout to stdout, writing each line sent to the log first. */
    private static final String RELAY = """
            const fs = require('fs'); const { spawn } = require('child_process'); const readline = require('readline');
            const [log, cmd, ...args] = process.argv.slice(2);
            const server = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'] });
            readline.createInterface({ input: process.stdin }).on('line', line => {
              fs.appendFileSync(log, '> ' + line + '\\n'); server.stdin.write(line + '\\n'); });
            readline.createInterface({ input: server.stdout }).on('line', line => process.stdout.write(line + '\\n'));
            server.on('exit', code => process.exit(code ?? 1));
            """;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path dir;
    FakeOpenAiServer llm;
    Path db;
    Path config;
    Path log;

    @BeforeEach
    void start() throws Exception {
        llm = new FakeOpenAiServer();
        db = dir.resolve("agent.db");
        config = dir.resolve("agent.toml");
        log = dir.resolve("relay.log");
        Store.open(db, Clock.systemUTC()).close();
    }

    @AfterEach
    void stop() {
        llm.close();
    }

    @Test
    void a_halt_cancels_the_call_in_flight_with_notifications_cancelled_before_the_server_is_killed() throws Exception {
        String node = McpReferenceServers.node();
        Path everything = McpReferenceServers.everything();
        Path relay = Files.writeString(dir.resolve("relay.cjs"), RELAY);
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n[mcp]\nallow = [\"everything\"]\n"
                + "[[mcp.servers]]\nname = \"everything\"\ncommand = \"" + node + "\"\nargs = [\"" + relay + "\", \""
                + log + "\", \"" + node + "\", \"" + everything + "\", \"stdio\"]\ntimeout_s = 30\n"
                + "read_only = [\"" + McpReferenceServers.folder() + "\"]\nread_write = [\"" + dir + "\"]\n");
        cli("note", "run something long");
        llm.streamed("Calling the tool.\n# Commands:\n[{\"cmd_id\": \"c-1\", \"type\":"
                + " \"mcp.everything.trigger-long-running-operation\", \"args\": {\"duration\": 30, \"steps\": 3}}]\n"
                + "# End commands", 10, 5);

        CompletableFuture<Run> running = CompletableFuture.supplyAsync(() -> cli("run", "--hz", "20",
                "--exit-on-lockout"));
        JsonNode call = awaitSent("tools/call");
        ProcessHandle server = serverProcess();
        assertThat(cli("halt", "--reason", "enough").code()).isZero();
        Run run = running.get();

        assertThat(run.code()).as(run.out() + run.err()).isEqualTo(7);
        assertThat(text("SELECT status || ' ' || error_code FROM process_log"
                + " WHERE name = 'mcp.everything.trigger-long-running-operation'")).isEqualTo("error EHALT");
        List<JsonNode> sent = sent();
        JsonNode cancelled = sent.stream().filter(m -> m.path("method").asText().equals("notifications/cancelled"))
                .findFirst().orElseThrow(() -> new AssertionError("no notifications/cancelled in " + sent));
        assertThat(cancelled.path("params").path("requestId")).as("the call's own id").isEqualTo(call.path("id"));
        assertThat(cancelled.path("params").path("reason").asText()).isNotBlank();
        assertThat(server.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS).isAlive())
                .as("the server's tree was killed after the cancellation").isFalse();
    }

    record Run(int code, String out, String err) { }

    Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Launch launch = new Launch(Map.of("HOME", dir.toString()),
                () -> new DumbTerminal(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()),
                Clock.systemUTC(), false, dev.hmpagent.runtime.LlmChain::client, (name, handler) -> { });
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

    /** Every message the agent sent the server, as the relay recorded them. */
    private List<JsonNode> sent() throws Exception {
        List<JsonNode> out = new ArrayList<>();
        if (!Files.exists(log)) return out;
        for (String line : Files.readAllLines(log)) {
            if (line.startsWith("> ")) out.add(JSON.readTree(line.substring(2)));
        }
        return out;
    }

    /** The first message with {@code method} the agent sent, once the relay recorded it (the relay's output). */
    private JsonNode awaitSent(String method) throws Exception {
        long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline) {
            Optional<JsonNode> found = sent().stream().filter(m -> m.path("method").asText().equals(method)).findFirst();
            if (found.isPresent()) return found.get();
            Thread.sleep(50);
        }
        throw new AssertionError("the agent never sent " + method);
    }

    /** The relay's process, the one the agent started. */
    private static ProcessHandle serverProcess() {
        return ProcessHandle.current().children()
                .filter(p -> p.info().arguments().map(a -> String.join(" ", a).contains("relay.cjs")).orElse(false))
                .findFirst().orElseThrow(() -> new AssertionError("the relay is not running"));
    }
}
