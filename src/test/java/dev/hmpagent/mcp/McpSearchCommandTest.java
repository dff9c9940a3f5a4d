package dev.hmpagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.commands.Args;
import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.config.McpServerEntry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The command mcp_search before any server answered: a server it cannot search is said, a wrong name is one line. */
@Timeout(30)
class McpSearchCommandTest {
    static CommandOutcome run(CommandHandler search, String json) throws Exception {
        ObjectNode args = (ObjectNode) new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
        return search.execute(new Args(search.type(), "{}", args), null);
    }

    @Test
    void a_server_still_starting_is_said_and_an_unknown_server_is_a_one_line_error() throws Exception {
        // never started: it stays STARTING
        try (McpServers servers = new McpServers(List.of(new McpServerEntry("slow", "/nonexistent/mcp-server",
                List.of(), Map.of(), "", Map.of(), Duration.ofSeconds(5))), name -> null)) {
            CommandHandler search = servers.searchCommand();
            assertThat(search.type()).isEqualTo("mcp_search");
            assertThat(search.signature().line(search.type())).isEqualTo("mcp_search(query?: string, server?: string,"
                    + " offset?: integer)");

            CommandOutcome none = run(search, "{\"query\": \"read\"}");
            assertThat(none.failed()).isFalse();
            assertThat(none.result()).isEqualTo("no MCP tool matching \"read\" among 0 tools: try fewer or other"
                    + " words\n(still starting, not searched yet: slow; search again in a later tick)");

            CommandOutcome wrong = run(search, "{\"query\": \"read\", \"server\": \"fast\"}");
            assertThat(wrong.failed()).isTrue();
            assertThat(wrong.result()).isEqualTo("mcp_search: no MCP server \"fast\"; configured: slow");
        }
    }
}
