package dev.hmpagent.cli;

import picocli.CommandLine.Command;

/** {@code agent config}: every effective value and where it came from, secrets masked. Opens no database. */
@Command(name = "config", mixinStandardHelpOptions = true,
        description = "Print every effective config value and where it came from (secrets masked).")
final class ConfigCommand extends Subcommand {

    ConfigCommand(AgentCommand root, Launch launch) {
        super(root, launch);
    }

    @Override
    public Integer call() {
        loaded().describe().forEach(out()::println);
        out().flush();
        return ExitCodes.OK;
    }
}
