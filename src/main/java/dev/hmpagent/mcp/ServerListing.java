package dev.hmpagent.mcp;

import dev.hmpagent.commands.CommandRegistry;
import dev.hmpagent.config.McpServerEntry;
import java.util.Collection;

/** What {@code agent mcp list} and {@code /mcp} show of the servers: one line per server, then its tools, a line each. */
final class ServerListing {
    /** The widest a tool's line is, its indent included (each tool's first sentence). */
    static final int WIDTH = 100;

    private ServerListing() { }

    /** Each server as one moment of it ({@link McpConnection#status()}): its state, reason and tools read together. */
    static String describe(Collection<McpConnection> servers) {
        if (servers.isEmpty()) return "no MCP server is configured ([[mcp.servers]] in agent.toml)\n";
        StringBuilder sb = new StringBuilder();
        for (McpConnection c : servers) {
            McpServerEntry e = c.entry();
            ConnectionState s = c.status();
            sb.append(c.name()).append(" (").append(e.stdio() ? "stdio" + profile(c) + ": " : "http: ").append(e.where())
                    .append("): ")
                    .append(s.state().word());
            if (!s.reason().isEmpty()) sb.append(" — ").append(s.reason());
            if (s.state() == McpServers.State.READY) sb.append(", ").append(s.tools().size()).append(s.tools().size() == 1
                    ? " tool" : " tools");
            sb.append('\n');
            s.tools().forEach(t -> sb.append("  ").append(t.shortLine(WIDTH - 2)).append(CommandRegistry.reservedWord(t.type())
                    .map(w -> "  [not offered to the LLM: " + OfferedTools.reserved(w) + "]").orElse("")).append('\n'));
        }
        return sb.toString();
    }

    /** How a stdio server is confined, as the listing says it. */
    private static String profile(McpConnection c) {
        McpServerEntry e = c.entry();
        if (!e.sandbox()) return ", unconfined";
        return c.confined() ? ", sandboxed, network " + (e.network() ? "on" : "off") : ", unconfined: no sandbox here";
    }
}
