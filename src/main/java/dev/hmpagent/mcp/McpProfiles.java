package dev.hmpagent.mcp;

import dev.hmpagent.config.McpServerEntry;
import dev.hmpagent.config.Secrets;
import dev.hmpagent.process.Confinement;
import dev.hmpagent.process.ServerSandbox;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What {@code agent check} says of [[mcp.servers]] without starting one (check stays fast and never loads the SDK):
 * each server's name, how it is reached (the command line, or the url with any credentials in it hidden; of env and
 * headers only the names of the variables, never a value) and the sandbox profile in force. Each risk is a line of
 * its own, as check says the others: a server that runs unconfined, or one that will not start.
 */
public final class McpProfiles {
    private McpProfiles() { }

    /**
     * @param confinement this run's sandbox, which a stdio server whose entry says {@code sandbox = true} runs in
     * @param variables   the agent's environment, asked only whether a named variable is set
     */
    public static List<String> checkLines(List<McpServerEntry> entries, Confinement confinement,
                                          Function<String, String> variables) {
        Objects.requireNonNull(confinement, "confinement");
        Objects.requireNonNull(variables, "variables");
        if (entries.isEmpty()) return List.of("MCP servers: none configured ([[mcp.servers]] in agent.toml)");
        List<String> lines = new ArrayList<>();
        List<String> risks = new ArrayList<>();
        lines.add("MCP servers: " + entries.size() + " configured, not started by check (agent mcp list starts them"
                + " and shows their tools):");
        for (McpServerEntry e : entries) {
            lines.add("  " + e.name() + ": " + transport(e) + "; " + profile(e, confinement));
            risk(e, confinement).ifPresent(risks::add);
            runner(e, confinement).ifPresent(risks::add);
            unseen(e, confinement).ifPresent(risks::add);
            e.env().forEach((key, variable) -> unset(e, "env", key, variable, variables).ifPresent(risks::add));
            e.headers().forEach((key, variable) -> unset(e, "headers", key, variable, variables).ifPresent(risks::add));
        }
        lines.addAll(risks);
        return List.copyOf(lines);
    }

    /** The command line or the url, then which variables pass which names: never their values. */
    private static String transport(McpServerEntry e) {
        String where = e.stdio() ? "stdio: " + e.where() : "http: " + Secrets.redactUrl(e.url());
        Map<String, String> passed = e.stdio() ? e.env() : e.headers();
        if (passed.isEmpty()) return where;
        return where + " (" + (e.stdio() ? "env " : "headers ") + new java.util.TreeMap<>(passed).entrySet().stream()
                .map(p -> p.getKey() + " from $" + p.getValue()).collect(Collectors.joining(", ")) + ")";
    }

    /** The sandbox profile in force for it. */
    private static String profile(McpServerEntry e, Confinement confinement) {
        if (!e.stdio()) return "not started by the agent, so no sandbox of ours";
        if (!e.sandbox()) return "unconfined (sandbox = false)";
        return switch (confinement.kind()) {
            case SANDBOXED -> "sandboxed: read-only " + paths(e.readOnly()) + ", read-write " + paths(e.readWrite())
                    + ", network " + (e.network() ? "on" : "off");
            case FALLBACK -> "unconfined: no sandbox here";
            case REFUSED -> "refused: no sandbox here";
        };
    }

    /**
     * What an unconfined server can read that a person may not think of: it runs as the same user as the agent, so
     * the kernel lets it read the agent's own process files, whatever the agent passes it.
     */
    static final String UNCONFINED_READS = ", including this agent's database and its own environment"
            + " (/proc/<agent pid>/environ, with every API key the agent was started with)";

    /** The line that says what is at stake, when something is. */
    private static Optional<String> risk(McpServerEntry e, Confinement confinement) {
        String server = "mcp server " + e.name() + ": ";
        if (!e.stdio()) return Optional.empty();
        if (!e.sandbox()) {
            return Optional.of(server + "sandbox = false: runs unconfined, with your user's rights on your"
                    + " files and the network" + UNCONFINED_READS);
        }
        return switch (confinement.kind()) {
            case SANDBOXED -> Optional.empty();
            case FALLBACK -> Optional.of(server + "runs unconfined, with your user's rights on your files and"
                    + " the network" + UNCONFINED_READS + ": this run has no sandbox (the sandbox line above says why)");
            case REFUSED -> Optional.of(server + "will not start: sandbox.mode = \"required\" and no sandbox"
                    + " works here; set sandbox = false on this entry to run it unconfined");
        };
    }

    /**
     * A package runner ({@code npx}, {@code uvx}…): what it needs, and where it will not start as it is (in the
     * sandbox, without the network) the fix in agent.toml's words.
     */
    private static Optional<String> runner(McpServerEntry e, Confinement confinement) {
        boolean confined = e.sandbox() && confinement.kind() == Confinement.Kind.SANDBOXED;
        return PackageRunners.of(e).map(r -> "mcp server " + e.name() + ": " + (confined && !e.network()
                ? "will not start as it is: " : "") + r.advice(e, confined));
    }

    /** The paths its command and arguments name that its sandbox does not show it, and the keys that would. */
    private static Optional<String> unseen(McpServerEntry e, Confinement confinement) {
        if (!e.stdio() || !e.sandbox() || confinement.kind() != Confinement.Kind.SANDBOXED) return Optional.empty();
        List<String> line = new ArrayList<>(List.of(e.command()));
        line.addAll(e.args());
        List<String> unseen = ServerSandbox.unseen(line, e.readOnly(), e.readWrite());
        if (unseen.isEmpty()) return Optional.empty();
        return Optional.of("mcp server " + e.name() + ": its command line names " + String.join(", ", unseen)
                + ", which its sandbox does not show it: add " + (unseen.size() == 1 ? "it" : "them") + " (or a folder"
                + " above) to read_only, or read_write if it writes there, on this entry");
    }

    /** A variable an entry names that is not set: the server will not start (its name said, never a value). */
    private static Optional<String> unset(McpServerEntry e, String field, String key, String variable,
                                                    Function<String, String> variables) {
        String value = variables.apply(variable);
        if (value != null && !value.isEmpty()) return Optional.empty();
        return Optional.of("mcp server " + e.name() + ": will not start: " + field + "." + key
                + " names the environment variable " + variable + ", which is not set");
    }

    private static String paths(List<Path> paths) {
        return paths.isEmpty() ? "none" : paths.stream().map(Path::toString).collect(Collectors.joining(", "));
    }
}
