package dev.hmpagent.mcp;

import dev.hmpagent.text.Json;
import dev.hmpagent.config.McpServerEntry;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import dev.hmpagent.process.Confinement;
import dev.hmpagent.process.ServerSandbox;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The transport for one entry: the SDK's over streamable HTTP, ours over stdio ({@link StdioTransport}). A stdio
 * server's process gets the allow-listed environment every child of the agent gets ({@code ChildEnvironment}: the
 * basics and {@code shell.env}) and the variables its entry's {@code env} names, read from the agent's environment;
 * never the rest of it, so the agent's own keys stay its own. A url server's headers are read the same way.
 */
final class McpTransports {
    private McpTransports() { }

    /** Thrown when a variable an entry names is not set, or its sandbox is required and missing: it is not started. */
    static final class CannotStart extends RuntimeException {
        CannotStart(String message) {
            super(message);
        }
    }

    static McpClientTransport of(McpServerEntry entry, Function<String, String> variables, ServerStderr stderr,
                                 Confinement confinement, Map<String, String> children,
                                 StdioTransport.Listener listener) {
        JacksonMcpJsonMapper json = new JacksonMcpJsonMapper(Json.mapper());
        if (!entry.stdio()) {
            HttpRequest.Builder request = HttpRequest.newBuilder();
            values(entry, "headers", entry.headers(), variables).forEach(request::header);
            // the SDK takes the server's root and the endpoint's path apart: the url is split where it says
            java.net.URI url = java.net.URI.create(entry.url());
            String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
            return HttpClientStreamableHttpTransport.builder(url.getScheme() + "://" + url.getRawAuthority())
                    .endpoint(path + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery()))
                    .jsonMapper(json).requestBuilder(request).build();
        }
        List<String> command = new ArrayList<>(List.of(entry.command()));
        command.addAll(entry.args());
        List<String> given = command;
        if (entry.sandbox()) command = confined(entry, confinement, command);
        // the server gets only the allow-list and its entry's env, never the agent's own variables
        Map<String, String> env = new TreeMap<>(children);
        env.putAll(values(entry, "env", entry.env(), variables));
        // a package runner without the network fails at once, saying why, rather than retrying for a minute
        env.putAll(PackageRunners.offline(entry, !command.equals(given)));
        return new StdioTransport(entry.name(), command, env, json, stderr, listener);
    }

    /**
     * {@code command} inside this run's sandbox with the entry's profile; unconfined where the run has no sandbox
     * (sandbox.mode auto or off), refused where it is required and missing.
     */
    private static List<String> confined(McpServerEntry entry, Confinement confinement, List<String> command) {
        if (confinement.kind() == Confinement.Kind.REFUSED) {
            throw new CannotStart("sandbox.mode = \"required\" and no sandbox works here ("
                    + confinement.line() + "); set sandbox = false on this entry to run it unconfined");
        }
        try {
            return ServerSandbox.wrap(confinement, entry.network(), entry.readOnly(), entry.readWrite(), command)
                    .orElse(command);
        } catch (dev.hmpagent.process.Sandbox.Unsafe e) {
            throw new CannotStart(e.getMessage());
        }
    }

    /** The values the entry's {@code env} and {@code headers} pass (those set): secrets, never shown to the model. */
    static List<String> secretValues(McpServerEntry entry, Function<String, String> variables) {
        List<String> out = new ArrayList<>();
        java.util.stream.Stream.concat(entry.env().values().stream(), entry.headers().values().stream())
                .map(variables).filter(v -> v != null && !v.isBlank()).forEach(out::add);
        return out;
    }

    /** Each key's value, read from the variable it names; a variable not set stops the start, named (not shown). */
    private static Map<String, String> values(McpServerEntry entry, String field, Map<String, String> names,
                                              Function<String, String> variables) {
        Map<String, String> out = new TreeMap<>();
        names.forEach((key, variable) -> {
            String value = variables.apply(variable);
            if (value == null || value.isEmpty()) {
                throw new CannotStart(field + "." + key + " names the environment variable " + variable
                        + ", which is not set: set it before starting the agent");
            }
            out.put(key, value);
        });
        return out;
    }
}
