package dev.hmpagent.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One {@code [[mcp.servers]]} entry: a Model Context Protocol server whose tools become commands
 * {@code mcp.<name>.<tool>}. Over stdio it is started as {@code command} with {@code args}; over streamable HTTP it is
 * reached at {@code url}. {@code env} and {@code headers} map a variable or header to the <em>name</em> of an
 * environment variable of the agent whose value is passed: no value is ever written in the file.
 *
 * @param timeout how long one tool call may take before it is a failure
 * @param sandbox whether a stdio server runs inside the sandbox (bubblewrap), seeing of the machine only the system
 *                (read-only) and {@code readOnly} and {@code readWrite}; the network only with {@code network}
 */
public record McpServerEntry(String name, String command, List<String> args, Map<String, String> env, String url,
                             Map<String, String> headers, Duration timeout, boolean sandbox, boolean network,
                             List<java.nio.file.Path> readOnly, List<java.nio.file.Path> readWrite) {
    /** The default {@code timeout_s} of an entry. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    public McpServerEntry {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(command, "command");
        args = List.copyOf(args);
        env = Map.copyOf(env);
        Objects.requireNonNull(url, "url");
        headers = Map.copyOf(headers);
        Objects.requireNonNull(timeout, "timeout");
        readOnly = List.copyOf(readOnly);
        readWrite = List.copyOf(readWrite);
    }

    /** An entry whose server runs unconfined ({@code sandbox = false}), with the network. */
    public McpServerEntry(String name, String command, List<String> args, Map<String, String> env, String url,
                          Map<String, String> headers, Duration timeout) {
        this(name, command, args, env, url, headers, timeout, false, true, List.of(), List.of());
    }

    /** Whether the server is a process spoken to over its stdin and stdout (else over streamable HTTP). */
    public boolean stdio() {
        return !command.isEmpty();
    }

    /** Where it is: the command line (names, never values) or the URL. */
    public String where() {
        return stdio() ? String.join(" ", java.util.stream.Stream.concat(java.util.stream.Stream.of(command),
                args.stream()).toList()) : url;
    }

    /** As {@code agent config} shows it: every field given, in file order. */
    Map<String, Object> table() {
        Map<String, Object> t = new java.util.LinkedHashMap<>();
        t.put("name", name);
        if (stdio()) {
            t.put("command", command);
            t.put("args", args);
            t.put("env", new java.util.TreeMap<>(env));
            t.put("sandbox", sandbox);
            t.put("network", network);
            t.put("read_only", readOnly);
            t.put("read_write", readWrite);
        } else {
            t.put("url", url);
            t.put("headers", new java.util.TreeMap<>(headers));
        }
        t.put("timeout_s", timeout.toSeconds());
        return t;
    }

    /** {@code [[mcp.servers]]}' tables as records, defaults filled in. */
    @SuppressWarnings("unchecked")
    static List<McpServerEntry> fromTables(List<Map<String, Object>> tables) {
        return tables.stream().map(t -> new McpServerEntry((String) t.get("name"),
                (String) t.getOrDefault("command", ""), (List<String>) t.getOrDefault("args", List.of()),
                names((Map<String, Object>) t.getOrDefault("env", Map.of())), (String) t.getOrDefault("url", ""),
                names((Map<String, Object>) t.getOrDefault("headers", Map.of())),
                Duration.ofSeconds((Long) t.getOrDefault("timeout_s", DEFAULT_TIMEOUT.toSeconds())),
                (Boolean) t.getOrDefault("sandbox", true), (Boolean) t.getOrDefault("network", false),
                (List<java.nio.file.Path>) t.getOrDefault("read_only", List.of()),
                (List<java.nio.file.Path>) t.getOrDefault("read_write", List.of()))).toList();
    }

    private static Map<String, String> names(Map<String, Object> table) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        table.forEach((k, v) -> out.put(k, String.valueOf(v)));
        return out;
    }
}
