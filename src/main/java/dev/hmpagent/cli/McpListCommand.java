package dev.hmpagent.cli;

import dev.hmpagent.mcp.McpServers;
import dev.hmpagent.runtime.Launch;
import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.text.Text;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code agent mcp list}: starts each server of [[mcp.servers]] as a running agent would, waits for it to answer,
 * prints its state and its tools (the commands the LLM would see), and stops it again. It touches no database.
 */
@Command(name = "list", mixinStandardHelpOptions = true,
        description = {"Start the MCP servers of agent.toml, show each one's state and tools (as the LLM would see"
                + " them), and stop them again.",
                "Exit code 0: every server answered with its tools; 3: a server failed to start or list (each said"
                        + " on its line, and named at the end)."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  agent mcp list",
                "  agent mcp list --config ./agent.toml --wait 60"})
final class McpListCommand extends Subcommand {
    @Option(names = "--wait", paramLabel = "SECONDS", description = "How long to wait for the servers to answer,"
            + " 1 to 300 (default: 30).")
    int waitSeconds = 30;

    McpListCommand(AgentCommand root, Launch launch) {
        super(root, launch);
    }

    @Override
    public Integer call() throws InterruptedException {
        if (waitSeconds < 1 || waitSeconds > 300) {
            err().println("agent mcp list: --wait must be from 1 to 300 seconds");
            return ExitCodes.USAGE;
        }
        // each server in the sandbox this run would have
        try (McpServers servers = new McpServers(config().mcp().servers(), launch().env()::get,
                Wiring.confinement(config(), configFiles(), launch().env()), config().mcp().catalogueChars(),
                dev.hmpagent.runtime.KnownSecrets.of(config(), launch().env()).children().variables())) {
            // each failure is in the listing itself: not said twice
            servers.startInBackground(event -> { });
            boolean settled = servers.awaitSettled(Duration.ofSeconds(waitSeconds));
            say(listing(servers, width()));
            if (!settled) say("(still starting after " + waitSeconds + " s: --wait gives them longer)");
            out().flush();
            return failed(servers.states());
        }
    }

    /**
     * Exit 0 when every server is ready; else 3 (a server is configuration, as check's sandbox is), the servers that
     * are not named on stderr, so a script sees the failure and a person which lines to read.
     */
    private int failed(Map<String, McpServers.State> states) {
        List<String> failed = states.entrySet().stream().filter(s -> s.getValue() != McpServers.State.READY)
                .map(s -> s.getKey() + " (" + s.getValue().word() + ")").toList();
        if (failed.isEmpty()) return ExitCodes.OK;
        err().println("agent mcp list: " + failed.size() + " of " + states.size() + " MCP servers did not answer"
                + " with their tools: " + String.join(", ", failed) + "; each one's line above says why");
        err().flush();
        return ExitCodes.CONFIG;
    }

    /** What {@code agent mcp list} and {@code /mcp} in the REPL show: each server, its state, then its tools. */
    static String listing(McpServers servers) {
        return listing(servers, 0);
    }

    /**
     * The listing with each tool's line also within {@code width} columns, when it is known (above 0): a tool is
     * one row of the terminal, never wrapped. A server's line is not cut: a failure's reason and its fix are read whole.
     */
    static String listing(McpServers servers, int width) {
        String all = servers.describe().stripTrailing();
        if (width <= 0) return all;
        return String.join("\n", all.lines().map(l -> l.startsWith("  ") ? Text.fit(l, width) : l).toList());
    }

    /** The terminal's width when a person reads the listing there, else 0 (a pipe gets the listing's own cap). */
    private int width() {
        if (!launch().interactive()) return 0;
        try (org.jline.terminal.Terminal terminal = launch().terminals().create()) {
            return terminal.getWidth();
        } catch (java.io.IOException | RuntimeException e) {
            return 0;   // no terminal to ask: the listing's own cap holds
        }
    }
}
