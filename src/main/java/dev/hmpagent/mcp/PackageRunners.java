package dev.hmpagent.mcp;

import dev.hmpagent.config.McpServerEntry;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The package runners a server's command may be ({@code npx}, {@code uvx}, {@code pipx run}, {@code bunx},
 * {@code pnpm dlx}, {@code yarn dlx}): each fetches the package from its registry when the server starts, so it needs
 * the network and a writable cache. The line every README copies ({@code command = "npx", args = ["-y",
 * "@modelcontextprotocol/server-filesystem", DIR]}) has neither in a server's default sandbox (network off), and npm
 * then retries for over a minute before it says so: here a runner is named with what it needs and the fix in
 * agent.toml's own words, by {@code agent check} before anything starts and in a failed start's line, and without the
 * network it is told to work offline, so it fails at once with its own error instead of at the start's timeout.
 */
record PackageRunners(String runner, String registry, String cache, String install, String program,
                      String readOnly, Map<String, String> offline) {
    private static final String NODE_BIN = "DIR/node_modules/.bin/<its program>";
    private static final String PYTHON_BIN = "~/.local/bin/<its program>";
    private static final List<PackageRunners> KNOWN = List.of(
            new PackageRunners("npx", "the npm registry", "~/.npm", "npm install --prefix DIR PKG", NODE_BIN, "DIR",
                    Map.of("npm_config_offline", "true")),
            new PackageRunners("pnpm dlx", "the npm registry", "~/.cache/pnpm", "pnpm add --dir DIR PKG", NODE_BIN,
                    "DIR", Map.of("npm_config_offline", "true")),
            new PackageRunners("yarn dlx", "the npm registry", "~/.yarn/berry/cache", "npm install --prefix DIR PKG",
                    NODE_BIN, "DIR", Map.of("YARN_ENABLE_OFFLINE_MODE", "1")),
            new PackageRunners("bunx", "the npm registry", "~/.bun/install/cache", "bun add --cwd DIR PKG", NODE_BIN,
                    "DIR", Map.of()),
            new PackageRunners("uvx", "PyPI", "~/.cache/uv", "uv tool install PKG", PYTHON_BIN,
                    "~/.local/share/uv/tools", Map.of("UV_OFFLINE", "1")),
            new PackageRunners("pipx run", "PyPI", "~/.local/share/pipx", "pipx install PKG", PYTHON_BIN,
                    "~/.local/share/pipx", Map.of("PIP_NO_INDEX", "1")));
    /** The options of a runner that name the package to fetch (the argument after them). */
    private static final List<String> PACKAGE_OPTIONS = List.of("-p", "--package", "--from", "--spec");

    /** The runner {@code entry}'s command is, if it is one (by the command's file name and its first word). */
    static Optional<PackageRunners> of(McpServerEntry entry) {
        if (!entry.stdio()) return Optional.empty();
        String name = java.nio.file.Path.of(entry.command()).getFileName().toString();
        String first = entry.args().isEmpty() ? "" : entry.args().get(0);
        return KNOWN.stream().filter(r -> r.runner.equals(name) || r.runner.equals(name + " " + first)).findFirst();
    }

    /** The package {@code entry} asks its runner for: what follows {@code -p}/{@code --from}, else the first word. */
    String packageOf(McpServerEntry entry) {
        List<String> args = entry.args().subList(runner.contains(" ") ? 1 : 0, entry.args().size());
        for (int i = 0; i < args.size(); i++) {
            if (PACKAGE_OPTIONS.contains(args.get(i)) && i + 1 < args.size()) return args.get(i + 1);
        }
        return args.stream().filter(a -> !a.startsWith("-")).findFirst().orElse("its package");
    }

    /** What it needs: "npx fetches PKG from the npm registry when it starts: it needs the network and ~/.npm". */
    String needs(McpServerEntry entry) {
        return runner + " fetches " + packageOf(entry) + " from " + registry + " when it starts, so it needs the"
                + " network and a writable cache (" + cache + ")";
    }

    /** The way that needs no network at all: install it once, point {@code command} at it, its folder read-only. */
    String installOnce(McpServerEntry entry) {
        return "install it once (" + install.replace("PKG", packageOf(entry)) + "), set command = \"" + program
                + "\" and add " + readOnly + " to read_only (as absolute paths)";
    }

    /**
     * Why {@code entry}, a runner, will not work or how it will, and the fix: in a sandbox without the network, either
     * key that makes it work; elsewhere what it needs.
     *
     * @param confined whether the server runs inside this run's sandbox
     */
    String advice(McpServerEntry entry, boolean confined) {
        if (confined && !entry.network()) {
            String told = offline.isEmpty() ? " cannot fetch it" : " is run offline (" + String.join(", ",
                    new java.util.TreeSet<>(offline.keySet())) + ") and fails at once";
            return needs(entry) + ", and this server's sandbox has no network (network = false), so " + runner + told
                    + ": set network = true on [[mcp.servers]] " + entry.name() + " (the package is then fetched into"
                    + " the sandbox's own HOME at each start), or " + installOnce(entry) + "; network can then stay off";
        }
        if (confined) {
            return needs(entry) + "; in its sandbox HOME is its own /tmp, so the cache is fetched anew at each start:"
                    + " to start faster, " + installOnce(entry);
        }
        return needs(entry);
    }

    /** The variables that make {@code entry}'s runner work offline, when it runs in a sandbox without the network. */
    static Map<String, String> offline(McpServerEntry entry, boolean confined) {
        if (!confined || entry.network()) return Map.of();
        return of(entry).map(r -> {
            Map<String, String> vars = new java.util.TreeMap<>(r.offline);
            vars.keySet().removeAll(entry.env().keySet());   // what the entry passes itself wins
            return Map.copyOf(vars);
        }).orElse(Map.of());
    }
}
