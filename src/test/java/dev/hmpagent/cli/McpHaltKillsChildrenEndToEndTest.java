package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The same as {@link HaltKillsChildrenEndToEndTest}, halted through the MCP halt tool of {@code agent mcp serve} (a
 * peer's emergency stop): the running agent's {@code sleep} is EHALT and gone at once, and the agent keeps running.
 * Its one test is the inherited one; only the halt differs.
 */
class McpHaltKillsChildrenEndToEndTest extends HaltKillsChildrenEndToEndTest {
    @Override
    void halt() {
        ServerParameters serve = ServerParameters.builder(Path.of(System.getProperty("java.home"), "bin", "java")
                        .toString())
                .args("-cp", System.getProperty("java.class.path"), Main.class.getName(), "mcp", "serve",
                        "--db", db.toString(), "--config", config.toString())
                .build();
        McpSyncClient peer = McpClient.sync(new StdioClientTransport(serve, new JacksonMcpJsonMapper(
                new ObjectMapper()))).requestTimeout(Duration.ofSeconds(60)).build();
        try {
            peer.initialize();
            McpSchema.CallToolResult halted = peer.callTool(new McpSchema.CallToolRequest("halt",
                    Map.of("reason", "a peer says enough")));
            assertThat(halted.isError()).as(halted.content().toString()).isFalse();
        } finally {
            peer.closeGracefully();
        }
    }
}
