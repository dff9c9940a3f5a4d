package dev.hmpagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.commands.Args;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.ExternalCommand;
import dev.hmpagent.config.McpServerEntry;
import dev.hmpagent.testing.McpReferenceServers;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server over streamable HTTP has no process to kill: a halt's cancellation is all there is. Between the agent and
 * {@code @modelcontextprotocol/server-everything} (over HTTP) runs a relay, a few lines of node that forward each
 * request and record each body the agent posted; the halt's {@code notifications/cancelled} for the call's id is there.
 */
@Timeout(90)
class McpHttpCancellationTest {
    /** Forwards every request to the target and pipes the answer back (SSE included), recording each body first. */
    private static final String RELAY = """
            const http = require('http'); const fs = require('fs');
            const [log, port, target] = process.argv.slice(2);
            http.createServer((req, res) => {
              const body = []; req.on('data', c => body.push(c)); req.on('end', () => {
                const b = Buffer.concat(body);
                if (b.length) fs.appendFileSync(log, b.toString().replace(/\\n/g, ' ') + '\\n');
                const up = http.request(target + req.url, { method: req.method, headers: req.headers }, r => {
                  res.writeHead(r.statusCode, r.headers); r.pipe(res); });
                up.on('error', () => { res.writeHead(502); res.end(); });
                up.end(b); });
            }).listen(Number(port), '127.0.0.1', () => console.log('relay listening'));
            """;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path dir;

    @Test
    void a_halt_cancels_a_call_to_a_server_over_http_with_notifications_cancelled() throws Exception {
        String node = McpReferenceServers.node();
        String everything = McpReferenceServers.everything().toString();
        Path log = dir.resolve("posted.log");
        int serverPort = freePort();
        int relayPort = freePort();
        ProcessBuilder builder = new ProcessBuilder(node, everything, "streamableHttp").redirectErrorStream(true);
        builder.environment().put("PORT", String.valueOf(serverPort));
        Process server = builder.start();
        Process relay = new ProcessBuilder(node, Files.writeString(dir.resolve("relay.cjs"), RELAY).toString(),
                log.toString(), String.valueOf(relayPort), "http://127.0.0.1:" + serverPort).redirectErrorStream(true)
                .start();
        try {
            awaitLine(server, "listening");
            awaitLine(relay, "relay listening");
            try (McpServers servers = new McpServers(List.of(new McpServerEntry("web", "", List.of(), Map.of(),
                    "http://127.0.0.1:" + relayPort + "/mcp", Map.of(), Duration.ofSeconds(30))), name -> null)) {
                servers.startInBackground(e -> { });
                assertThat(servers.awaitSettled(Duration.ofSeconds(40))).isTrue();
                ExternalCommand longCall = (ExternalCommand) servers.find("mcp.web.trigger-long-running-operation")
                        .orElseThrow();
                CompletableFuture<CommandOutcome> done = new CompletableFuture<>();
                longCall.start(new Args("mcp.web.trigger-long-running-operation", "{}",
                        (ObjectNode) JSON.readTree("{\"duration\": 30, \"steps\": 3}")), null, 7, done::complete);
                JsonNode call = awaitPosted(log, "tools/call");

                servers.cancelAll("halted by a person");

                assertThat(done.get(10, TimeUnit.SECONDS).code()).isEqualTo("EHALT");
                JsonNode cancelled = awaitPosted(log, "notifications/cancelled");
                assertThat(cancelled.path("params").path("requestId")).as("the call's own id").isEqualTo(call.path("id"));
                assertThat(cancelled.path("params").path("reason").asText()).isEqualTo("halted by a person");
            }
        } finally {
            relay.destroyForcibly();
            server.destroyForcibly();
        }
    }

    private static int freePort() throws Exception {
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            return free.getLocalPort();
        }
    }

    /** Reads the process's output until a line contains {@code word} (the test's timeout bounds it). */
    private static void awaitLine(Process p, String word) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.contains(word)) return;
        }
        throw new AssertionError("the process ended before saying " + word);
    }

    /** The first body posted with {@code method}, once the relay recorded it (its output, polled for 30 s at most). */
    private static JsonNode awaitPosted(Path log, String method) throws Exception {
        long deadline = System.currentTimeMillis() + 30_000;
        while (System.currentTimeMillis() < deadline) {
            List<JsonNode> posted = new ArrayList<>();
            if (Files.exists(log)) {
                for (String line : Files.readAllLines(log)) posted.add(JSON.readTree(line));
            }
            Optional<JsonNode> found = posted.stream().filter(m -> m.path("method").asText().equals(method)).findFirst();
            if (found.isPresent()) return found.get();
            Thread.sleep(50);
        }
        throw new AssertionError("nothing posted with " + method);
    }
}
