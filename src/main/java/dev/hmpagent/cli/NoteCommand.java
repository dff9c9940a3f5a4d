package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code agent note TEXT}: queue a message for the agent from another process (source 'cli'). */
@Command(name = "note", mixinStandardHelpOptions = true,
        description = {"Queue a message for the agent.", "A running agent picks it up within cycle.poll_ms."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  agent note \"check the logs in /var/log/app\"",
                "  agent note -p 5 -t ops,urgent \"the build is red\"",
                "  agent --db ~/agents/ops.db note \"stand down for the night\""})
final class NoteCommand extends Subcommand {
    @Parameters(arity = "1..*", paramLabel = "TEXT", description = "The message.")
    List<String> words;

    @Option(names = {"-p", "--priority"}, paramLabel = "N", defaultValue = "0", description = "Priority (higher is more urgent; default 0).")
    int priority;

    @Option(names = {"-t", "--tags"}, paramLabel = "TAGS", description = "Comma-separated tags.")
    String tags;

    NoteCommand(AgentCommand root, Launch launch) {
        super(root, launch);
    }

    @Override
    public Integer call() {
        NoteDelivery.deliver(configForDatabase().agent().db(), launch().clock(), String.join(" ", words), "cli", priority, tags)
                .forEach(this::say);
        return ExitCodes.OK;
    }
}
