package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code agent a2a}: the Agent2Agent protocol commands (issue 37); on its own it names them. */
@Command(name = "a2a", mixinStandardHelpOptions = true,
        description = {"The Agent2Agent (A2A) protocol commands."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  agent a2a serve --listen 127.0.0.1:7420           # this file's agent card and JSON-RPC",
                "  agent a2a serve --db ~/agents/ops.db              # at [a2a] listen of agent.toml"})
final class A2aCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    /** The group with its subcommands, as {@link Cli} adds it. */
    static CommandLine commandLine(AgentCommand root, Launch launch) {
        CommandLine group = new CommandLine(new A2aCommand());
        group.addSubcommand("serve", new A2aServeCommand(root, launch));
        return group;
    }

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(), "agent a2a needs a subcommand: "
                + String.join(", ", spec.subcommands().keySet()));
    }
}
