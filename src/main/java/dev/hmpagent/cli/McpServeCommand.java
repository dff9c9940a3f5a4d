package dev.hmpagent.cli;

import dev.hmpagent.mcp.ControlServer;
import dev.hmpagent.runtime.Launch;
import dev.hmpagent.store.Store;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import picocli.CommandLine.Command;

/**
 * {@code agent mcp serve}: the agent's control surface as an MCP server over stdio, on one file. Its tools are
 * {@code agent note} (as a peer), {@code agent status}, {@code agent log} and {@code agent halt}, run by the code of
 * those commands ({@link PeerControls}); there is no unlock. Stdout carries the protocol alone.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Serve this agent's file over MCP on stdio, for another agent or an editor.",
                "Tools: note (a message from a peer, not a person), status, log, halt.",
                "No unlock, nothing that widens policy or budget: those stay a person's.",
                "Runs until its input ends."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  agent mcp serve --db ~/agents/ops.db",
                "  {\"command\": \"agent\", \"args\": [\"mcp\", \"serve\", \"--db\", \"/path/ops.db\"]}"})
final class McpServeCommand extends Subcommand {
    McpServeCommand(AgentCommand root, Launch launch) {
        super(root, launch);
    }

    @Override
    public Integer call() throws InterruptedException {
        Path db = existingDb();
        // the file is opened as `agent status` opens it, so a damaged or newer file fails here with its message
        try (Store store = Store.openReadOnly(db, launch().clock())) {
            store.tables().agentLog().lastTickId();
        }
        InputStream in = System.in;
        PrintStream protocol = System.out;
        // stdout is the protocol's: anything else printed by this process goes to stderr instead
        System.setOut(System.err);
        err().println("agent mcp serve: " + db + " over stdio (tools note, status, log, halt)");
        err().flush();
        try {
            ControlServer.serve(new PeerControls(launch(), commonArguments(), config().agent().db()), launch().clock(),
                    Version.current(), in, protocol);
        } finally {
            System.setOut(protocol);
        }
        return ExitCodes.OK;
    }
}
