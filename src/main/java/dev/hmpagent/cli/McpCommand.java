package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code agent mcp}: the Model Context Protocol commands (issue 24); on its own it names them. */
@Command(name = "mcp", mixinStandardHelpOptions = true,
        description = {"The Model Context Protocol (MCP) commands."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  agent mcp list                         # agent.toml's servers and tools",
                "  agent mcp serve                        # over stdio, on ./agent.db",
                "  agent mcp serve --db ~/agents/ops.db"})
final class McpCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    /** The group with its subcommands, as {@link Cli} adds it. */
    static CommandLine commandLine(AgentCommand root, Launch launch) {
        CommandLine group = new CommandLine(new McpCommand());
        group.addSubcommand("list", new McpListCommand(root, launch));
        group.addSubcommand("serve", new McpServeCommand(root, launch));
        return group;
    }

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(), "agent mcp needs a subcommand: "
                + String.join(", ", spec.subcommands().keySet()));
    }
}
