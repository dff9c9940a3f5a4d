package dev.hmpagent.mcp;

import dev.hmpagent.commands.Args;
import dev.hmpagent.commands.CommandContext;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.ExternalCommand;
import dev.hmpagent.commands.Signature;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * The command {@code mcp.<server>.<tool>}: runs like {@code shell}, asynchronously. The executor has asked the gate
 * (the [mcp] rules, then the SafetyMonitor); {@link #start} hands the call to a call thread, and its result, or the
 * server's failure, comes back through the completions, which wake the LLM.
 */
record McpToolCommand(McpConnection server, String tool, String summary, Signature signature, Executor calls)
        implements ExternalCommand {
    McpToolCommand {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(signature, "signature");
        Objects.requireNonNull(calls, "calls");
    }

    /** The command of {@code listed}, a tool its server listed. */
    static McpToolCommand of(McpConnection server, McpTool listed, Executor calls) {
        return new McpToolCommand(server, listed.name(), listed.description().isBlank() ? "a tool of MCP server "
                + server.name() : listed.description(), listed.signature(), calls);
    }

    /** The command of a tool of a server still starting: its arguments are known once it answers. */
    static McpToolCommand unlisted(McpConnection server, String tool, Executor calls) {
        return new McpToolCommand(server, tool, "a tool of MCP server " + server.name() + " (starting)",
                new Signature(java.util.List.of()), calls);
    }

    @Override
    public String type() {
        return McpServers.PREFIX + server.name() + "." + tool;
    }

    @Override
    public String argsExample() {
        return "{}";
    }

    @Override
    public Optional<CommandOutcome> start(Args args, CommandContext context, long processLogId,
                                          Consumer<CommandOutcome> onDone) {
        if (server.state() == McpServers.State.FAILED || server.state() == McpServers.State.STOPPED) {
            return Optional.of(server.unavailable());
        }
        try {
            calls.execute(() -> server.call(tool, args.node(), processLogId, onDone));
        } catch (RejectedExecutionException e) {   // the agent is closing
            return Optional.of(server.unavailable());
        }
        return Optional.empty();
    }
}
