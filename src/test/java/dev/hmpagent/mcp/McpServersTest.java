package dev.hmpagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.ExternalCommand;
import dev.hmpagent.config.McpServerEntry;
import dev.hmpagent.event.AgentEvent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class McpServersTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void a_server_that_cannot_start_is_one_line_and_an_unavailable_family_never_a_crash() throws Exception {
        List<AgentEvent> events = new CopyOnWriteArrayList<>();
        try (McpServers servers = new McpServers(List.of(new McpServerEntry("ghost", "/nonexistent/mcp-server",
                List.of(), Map.of(), "", Map.of(), Duration.ofSeconds(5))), name -> null)) {
            servers.startInBackground(events::add);

            assertThat(servers.awaitSettled(Duration.ofSeconds(40))).isTrue();
            assertThat(servers.states()).containsEntry("ghost", McpServers.State.FAILED);
            assertThat(events).hasSize(1).first().isInstanceOfSatisfying(AgentEvent.Problem.class, p ->
                    assertThat(p.text()).startsWith("MCP server ghost did not start").doesNotContain("\n")
                            .endsWith("its tools (mcp.ghost.*) are unavailable; restarting it with back-off"));
            assertThat(servers.catalogLines()).startsWith("mcp server ghost: unavailable (did not start");
            CommandHandler handler = servers.find("mcp.ghost.anything").orElseThrow();
            assertThat(((ExternalCommand) handler).start(null, null, 1, o -> { })).hasValueSatisfying(o -> {
                assertThat(o.failed()).isTrue();
                assertThat(o.result()).startsWith("mcp server ghost is unavailable: did not start");
            });
            assertThat(servers.find("mcp.other.tool")).isEmpty();
            assertThat(servers.find("shell")).isEmpty();
        }
    }

    @Test
    void a_server_that_dies_is_one_line_then_restarted_with_back_off_and_its_tools_work_again() throws Exception {
        String node = dev.hmpagent.testing.McpReferenceServers.node();
        String everything = dev.hmpagent.testing.McpReferenceServers.everything().toString();
        List<AgentEvent> events = new CopyOnWriteArrayList<>();
        try (McpServers servers = new McpServers(List.of(new McpServerEntry("everything", node,
                List.of(everything, "stdio"), Map.of(), "", Map.of(), Duration.ofSeconds(10))), name -> null)) {
            servers.startInBackground(events::add);
            assertThat(servers.awaitSettled(Duration.ofSeconds(40))).isTrue();
            long first = servers.pid("everything").orElseThrow();

            ProcessHandle.of(first).orElseThrow().destroyForcibly();
            long deadline = System.currentTimeMillis() + 30_000;
            while (servers.pid("everything").filter(p -> p != first).isEmpty()
                    || servers.states().get("everything") != McpServers.State.READY) {
                assertThat(System.currentTimeMillis()).as("restarted within 30 s").isLessThan(deadline);
                Thread.sleep(50);
            }

            assertThat(events).filteredOn(e -> e instanceof AgentEvent.Problem).singleElement()
                    .satisfies(e -> assertThat(((AgentEvent.Problem) e).text()).isEqualTo("MCP server everything exited;"
                            + " its tools (mcp.everything.*) are unavailable; restarting it with back-off"));
            assertThat(events).filteredOn(e -> e instanceof AgentEvent.Info).singleElement()
                    .satisfies(e -> assertThat(((AgentEvent.Info) e).text()).startsWith("MCP server everything is back ("));
            ExternalCommand echo = (ExternalCommand) servers.find("mcp.everything.echo").orElseThrow();
            java.util.concurrent.CompletableFuture<dev.hmpagent.commands.CommandOutcome> done =
                    new java.util.concurrent.CompletableFuture<>();
            echo.start(new dev.hmpagent.commands.Args("mcp.everything.echo", "{}",
                    (ObjectNode) JSON.readTree("{\"message\": \"again\"}")), null, 7, done::complete);
            assertThat(done.get(20, java.util.concurrent.TimeUnit.SECONDS).result()).isEqualTo("Echo: again");
        }
    }

    @Test
    void a_server_over_streamable_http_is_listed_and_called_with_its_headers_read_from_variables() throws Exception {
        String node = dev.hmpagent.testing.McpReferenceServers.node();
        String everything = dev.hmpagent.testing.McpReferenceServers.everything().toString();
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        ProcessBuilder builder = new ProcessBuilder(node, everything, "streamableHttp").redirectErrorStream(true);
        builder.environment().put("PORT", String.valueOf(port));
        Process server = builder.start();
        try (java.io.BufferedReader out = new java.io.BufferedReader(new java.io.InputStreamReader(
                server.getInputStream(), java.nio.charset.StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null && !line.contains("listening"); line = out.readLine()) {
                assertThat(line).doesNotContain("Failed to start");
            }
            try (McpServers servers = new McpServers(List.of(new McpServerEntry("web", "", List.of(), Map.of(),
                    "http://127.0.0.1:" + port + "/mcp", Map.of("X-Agent-Token", "WEB_TOKEN"), Duration.ofSeconds(10))),
                    Map.of("WEB_TOKEN", "not-shown")::get)) {
                servers.startInBackground(e -> { });
                assertThat(servers.awaitSettled(Duration.ofSeconds(40))).isTrue();

                assertThat(servers.describe()).startsWith("web (http: http://127.0.0.1:" + port + "/mcp): ready, ")
                        .contains("  mcp.web.echo(message: string) — Echoes back the input string");
                ExternalCommand echo = (ExternalCommand) servers.find("mcp.web.echo").orElseThrow();
                java.util.concurrent.CompletableFuture<dev.hmpagent.commands.CommandOutcome> done =
                        new java.util.concurrent.CompletableFuture<>();
                echo.start(new dev.hmpagent.commands.Args("mcp.web.echo", "{}",
                        (ObjectNode) JSON.readTree("{\"message\": \"over http\"}")), null, 3, done::complete);
                assertThat(done.get(20, java.util.concurrent.TimeUnit.SECONDS).result()).isEqualTo("Echo: over http");
            }
        } finally {
            server.destroyForcibly();
        }
    }

    @Test
    void a_sandboxed_server_sees_only_the_paths_its_entry_lists() throws Exception {
        dev.hmpagent.process.Confinement sandbox = sandbox();
        String node = dev.hmpagent.testing.McpReferenceServers.node();
        String filesystem = dev.hmpagent.testing.McpReferenceServers.filesystem().toString();
        java.nio.file.Path hidden = java.nio.file.Files.createTempDirectory("mcp-hidden").toRealPath();
        List<java.nio.file.Path> servers = List.of(dev.hmpagent.testing.McpReferenceServers.folder());
        try (McpServers unlisted = new McpServers(List.of(new McpServerEntry("files", node,
                List.of(filesystem, hidden.toString()), Map.of(), "", Map.of(), Duration.ofSeconds(10), true, false,
                servers, List.of())), name -> null, sandbox);
             McpServers listed = new McpServers(List.of(new McpServerEntry("files", node,
                List.of(filesystem, hidden.toString()), Map.of(), "", Map.of(), Duration.ofSeconds(10), true, false,
                servers, List.of(hidden))), name -> null, sandbox)) {
            List<AgentEvent> unlistedEvents = new CopyOnWriteArrayList<>();
            unlisted.startInBackground(unlistedEvents::add);
            listed.startInBackground(e -> { });
            unlisted.awaitSettled(Duration.ofSeconds(40));
            listed.awaitSettled(Duration.ofSeconds(40));

            // it fails at once (its process exits), and may be starting again after its back-off by now; its line is
            // said just after its state is set
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (unlistedEvents.isEmpty() && System.nanoTime() < deadline) Thread.onSpinWait();
            assertThat(unlistedEvents).as(unlisted.describe()).filteredOn(e -> e instanceof AgentEvent.Problem)
                    .first().satisfies(e -> assertThat(((AgentEvent.Problem) e).text())
                            .startsWith("MCP server files did not start"));
            assertThat(listed.states()).as(listed.describe()).containsEntry("files", McpServers.State.READY);
            assertThat(listed.describe()).startsWith("files (stdio, sandboxed, network off: ");
        }
    }

    /** This machine's sandbox; skips where bubblewrap does not work. */
    private static dev.hmpagent.process.Confinement sandbox() {
        dev.hmpagent.config.AgentConfig config = dev.hmpagent.config.AgentConfig.defaults();
        dev.hmpagent.process.Confinement c = dev.hmpagent.runtime.Wiring.confinement(config, List.of(), System.getenv());
        org.junit.jupiter.api.Assumptions.assumeTrue(c.sandboxed(), "skipped: bwrap not available");
        return c;
    }

    @Test
    void the_back_off_doubles_from_one_second_up_to_a_minute() {
        assertThat(List.of(1, 2, 3, 6, 7, 20).stream().map(McpServers::backoff).map(Duration::toSeconds).toList())
                .containsExactly(1L, 2L, 4L, 32L, 60L, 60L);
    }

    @Test
    void a_variable_the_entry_names_that_is_not_set_stops_the_start_naming_it_not_its_value() throws Exception {
        List<AgentEvent> events = new CopyOnWriteArrayList<>();
        try (McpServers servers = new McpServers(List.of(new McpServerEntry("gh", "sh", List.of(),
                Map.of("GITHUB_TOKEN", "MY_TOKEN"), "", Map.of(), Duration.ofSeconds(5))), name -> null)) {
            servers.startInBackground(events::add);
            servers.awaitSettled(Duration.ofSeconds(10));

            assertThat(servers.describe()).startsWith("gh (stdio, unconfined: sh): failed — did not start: env.GITHUB_TOKEN"
                    + " names the environment variable MY_TOKEN, which is not set");
        }
    }

    @Test
    void no_server_shows_nothing_in_context_0_and_says_so_in_the_listing() {
        McpServers none = McpServers.none();

        assertThat(none.any()).isFalse();
        assertThat(none.catalogLines()).isEmpty();
        assertThat(none.describe()).startsWith("no MCP server is configured");
    }

    @Test
    void a_tools_signature_and_line_come_from_its_json_schema() throws Exception {
        ObjectNode schema = (ObjectNode) JSON.readTree("{\"type\": \"object\", \"properties\": {\"path\": {\"type\":"
                + " \"string\"}, \"head\": {\"type\": \"integer\"}, \"mode\": {\"enum\": [\"a\", \"b\"]}},"
                + " \"required\": [\"path\"]}");
        McpTool tool = new McpTool("files", "read_text_file", "Read a file\nas text.", schema);

        assertThat(tool.type()).isEqualTo("mcp.files.read_text_file");
        assertThat(tool.line()).isEqualTo("mcp.files.read_text_file(path: string, head?: integer, mode?: any)"
                + " — Read a file as text.");
    }
}
