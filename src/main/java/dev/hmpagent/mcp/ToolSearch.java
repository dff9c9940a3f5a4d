package dev.hmpagent.mcp;

import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.SimpleCommand;
import java.util.List;
import java.util.Map;

/** The command {@code mcp_search}, over the servers of one agent. */
final class ToolSearch {
    private ToolSearch() { }

    /**
     * Finds the ready servers' tools offered to the LLM by words of their name or description, those context 0 leaves
     * out too, each as context 0 lists it; each server's state and tools are read as one moment of it.
     */
    static CommandHandler command(Map<String, McpConnection> servers, OfferedTools offered) {
        return SimpleCommand.informing(McpServers.SEARCH, "find MCP servers' tools by words of their name or"
                + " description, also those context 0 does not list", "{\"query\": \"read file\"}", (args, ctx) -> {
            String server = args.optionalText("server").map(String::strip).orElse("");
            if (!server.isEmpty() && !servers.containsKey(server)) {
                return CommandOutcome.notFound(McpServers.SEARCH + ": no MCP server \"" + server + "\"; configured: "
                        + String.join(", ", servers.keySet()));
            }
            List<McpTool> tools = servers.values().stream().filter(c -> server.isEmpty() || c.name().equals(server))
                    .map(c -> Map.entry(c.name(), c.status()))
                    .filter(c -> c.getValue().state() == McpServers.State.READY)
                    .flatMap(c -> offered.of(c.getKey(), c.getValue().tools()).stream()).toList();
            long offset = args.node().path("offset").asLong(0);
            List<String> starting = servers.values().stream().filter(c -> server.isEmpty() || c.name().equals(server))
                    .filter(c -> c.state() == McpServers.State.STARTING).map(McpConnection::name).toList();
            return CommandOutcome.ok(McpCatalogue.search(tools, args.optionalText("query").orElse(""),
                    (int) Math.max(0, Math.min(offset, Integer.MAX_VALUE))) + (starting.isEmpty() ? "" : "\n(still"
                    + " starting, not searched yet: " + String.join(", ", starting) + "; search again in a later tick)"));
        }).takes("query?: string, server?: string, offset?: integer");
    }
}
