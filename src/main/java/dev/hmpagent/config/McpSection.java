package dev.hmpagent.config;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The [mcp] section: the Model Context Protocol servers whose tools the LLM may call, and who decides a call. Each of
 * {@code allow}, {@code ask} and {@code deny} names servers ({@code files}) or single tools ({@code files.read_file});
 * a tool's own entry beats its server's, deny beats ask beats allow, and a tool named nowhere is asked (of nobody,
 * headless: refused). {@code catalogueChars} caps the MCP tools' lines context 0 lists; the LLM finds the rest with
 * {@code mcp_search}.
 */
public record McpSection(List<McpServerEntry> servers, List<String> allow, List<String> ask, List<String> deny,
                         int catalogueChars) {
    /** The characters of tool lines context 0 lists when agent.toml does not say ({@code mcp.catalogue_chars}). */
    public static final int DEFAULT_CATALOGUE_CHARS = 5000;

    public McpSection {
        servers = List.copyOf(servers);
        allow = List.copyOf(allow);
        ask = List.copyOf(ask);
        deny = List.copyOf(deny);
    }

    /** The rules with the default cap of context 0's list of MCP tools. */
    public McpSection(List<McpServerEntry> servers, List<String> allow, List<String> ask, List<String> deny) {
        this(servers, allow, ask, deny, DEFAULT_CATALOGUE_CHARS);
    }

    /** No server, no rule. */
    public static McpSection none() {
        return new McpSection(List.of(), List.of(), List.of(), List.of());
    }

    /** The servers as {@code agent config} shows them. */
    public List<Map<String, Object>> serverTables() {
        return servers.stream().map(McpServerEntry::table).toList();
    }

    /** The entry named {@code name}, if any. */
    public java.util.Optional<McpServerEntry> server(String name) {
        Objects.requireNonNull(name, "name");
        return servers.stream().filter(s -> s.name().equals(name)).findFirst();
    }
}
