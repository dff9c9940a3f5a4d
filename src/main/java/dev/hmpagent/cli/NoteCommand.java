package dev.hmpagent.cli;

import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Store;
import java.io.PrintWriter;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code agent note TEXT}: queue a message for the agent from another process (source 'cli'). */
@Command(name = "note", mixinStandardHelpOptions = true,
        description = "Queue a message for the agent (a running agent picks it up within cycle.poll_ms).")
final class NoteCommand implements Callable<Integer> {
    @Mixin CommonOptions options;
    @Spec CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "TEXT", description = "The message.")
    List<String> words;

    @Option(names = {"-p", "--priority"}, defaultValue = "0", description = "Priority (higher is more urgent; default 0).")
    int priority;

    @Option(names = {"-t", "--tags"}, description = "Comma-separated tags.")
    String tags;

    private final AgentCommand root;
    private final Launch launch;

    NoteCommand(AgentCommand root, Launch launch) {
        this.root = Objects.requireNonNull(root, "root");
        this.launch = Objects.requireNonNull(launch, "launch");
    }

    @Override
    public Integer call() {
        AgentConfig config = options.over(root.options).load(launch.env()).config();
        try (Store store = Store.open(config.agent().db(), launch.clock())) {
            long id = new NotesDao(store).add(String.join(" ", words), "cli", priority, tags);
            PrintWriter out = spec.commandLine().getOut();
            out.println("note " + id + " queued in " + config.agent().db());
            out.flush();
        }
        return ExitCodes.OK;
    }
}
