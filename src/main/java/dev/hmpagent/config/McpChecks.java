package dev.hmpagent.config;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** The checks of [mcp] that one field's type cannot make: each fails with one line naming the entry and its fix. */
final class McpChecks {
    /** A server's name is one part of a command type {@code mcp.<server>.<tool>}: no dot. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,40}");
    private static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private McpChecks() { }

    static void check(ConfigValues values) {
        List<McpServerEntry> servers = values.mcpServers();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < servers.size(); i++) {
            McpServerEntry s = servers.get(i);
            String where = ConfigKey.MCP_SERVERS.fullName() + " entry " + (i + 1) + " (from "
                    + values.origin(ConfigKey.MCP_SERVERS) + ")";
            if (!NAME.matcher(s.name()).matches()) {
                throw new ConfigException(where + " has the name \"" + s.name() + "\": use letters, digits, _ and -"
                        + " (at most 40), no dot, since its tools are called mcp." + s.name() + ".<tool>");
            }
            if (!names.add(s.name())) {
                throw new ConfigException(where + " repeats the name \"" + s.name() + "\": give each server its own name");
            }
            checkTransport(where, s, values.mcpTable(i));
            variables(where, "env", s.env());
            variables(where, "headers", s.headers());
        }
        for (ConfigKey key : List.of(ConfigKey.MCP_ALLOW, ConfigKey.MCP_ASK, ConfigKey.MCP_DENY)) {
            for (String rule : values.textList(key)) {
                String server = rule.contains(".") ? rule.substring(0, rule.indexOf('.')) : rule;
                if (!names.contains(server)) {
                    throw new ConfigException(key.fullName() + " (from " + values.origin(key) + ") names \"" + rule
                            + "\", but no [[mcp.servers]] entry is called \"" + server + "\": write server or"
                            + " server.tool" + (names.isEmpty() ? "" : " with one of " + String.join(", ", names)));
                }
            }
        }
    }

    private static void checkTransport(String where, McpServerEntry s, Map<String, Object> given) {
        boolean command = given.containsKey("command");
        boolean url = given.containsKey("url");
        if (command == url) {
            throw new ConfigException(where + " (\"" + s.name() + "\") needs either command (a server started over stdio)"
                    + " or url (streamable HTTP), not " + (command ? "both" : "neither"));
        }
        if (command && s.command().isBlank()) {
            throw new ConfigException(where + " (\"" + s.name() + "\") has an empty command: name the program to start");
        }
        if (command && given.containsKey("headers")) {
            throw new ConfigException(where + " (\"" + s.name() + "\") has headers, which only a url server is sent:"
                    + " remove them, or pass values to a stdio server with env");
        }
        if (url && (given.containsKey("args") || given.containsKey("env"))) {
            throw new ConfigException(where + " (\"" + s.name() + "\") has args or env, which only a command server"
                    + " takes: remove them, or pass values to a url server with headers");
        }
        if (url && java.util.stream.Stream.of("sandbox", "network", "read_only", "read_write").anyMatch(given::containsKey)) {
            throw new ConfigException(where + " (\"" + s.name() + "\") has a sandbox profile (sandbox, network, read_only,"
                    + " read_write), which only a server the agent starts (command) has: remove it");
        }
    }

    /** Each value names an environment variable: the value itself never stands in the file. */
    private static void variables(String where, String field, Map<String, String> table) {
        table.forEach((key, variable) -> {
            if (!VARIABLE.matcher(variable).matches()) {
                throw new ConfigException(where + " has " + field + "." + key + " = a value that is not the name of an"
                        + " environment variable: write the variable's name (" + field + " = { " + key + " = \"MY_VAR\" }),"
                        + " never its value");
            }
        });
    }
}
