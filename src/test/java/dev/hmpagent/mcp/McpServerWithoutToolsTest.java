package dev.hmpagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.config.McpServerEntry;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server that declares no tools capability (the conformance suite's {@code initialize} scenario is one) is ready
 * with no tools, not a failure restarted again and again: the server here is the MCP SDK's own, over stdio, in a
 * child JVM.
 */
@Timeout(60)
class McpServerWithoutToolsTest {
    /** The server: the SDK's, with no capability at all, until its input ends. */
    public static void main(String[] args) throws InterruptedException {
        McpServer.sync(new StdioServerTransportProvider(new JacksonMcpJsonMapper(new ObjectMapper())))
                .serverInfo("no-tools", "1.0").capabilities(McpSchema.ServerCapabilities.builder().build()).build();
        Thread.currentThread().join();
    }

    @Test
    void a_server_without_the_tools_capability_is_ready_with_no_tools_and_says_no_problem() throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> problems = new ArrayList<>();
        try (McpServers servers = new McpServers(List.of(new McpServerEntry("bare", java, List.of("-cp",
                System.getProperty("java.class.path"), McpServerWithoutToolsTest.class.getName()), Map.of(), "",
                Map.of(), Duration.ofSeconds(10))), name -> null)) {
            servers.startInBackground(e -> problems.add(e.toString()));
            assertThat(servers.awaitSettled(Duration.ofSeconds(40))).isTrue();

            assertThat(servers.states()).containsEntry("bare", McpServers.State.READY);
            assertThat(servers.tools("bare")).isEmpty();
            assertThat(servers.describe()).startsWith("bare (stdio").contains("): ready, 0 tools");
            assertThat(problems).isEmpty();
        }
    }
}
