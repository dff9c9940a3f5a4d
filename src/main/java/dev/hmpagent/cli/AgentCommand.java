package dev.hmpagent.cli;

import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.cycle.Cycle;
import dev.hmpagent.cycle.TickLoop;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.repl.EventRenderer;
import dev.hmpagent.repl.Repl;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.RunnerLock;
import dev.hmpagent.store.Store;
import java.util.Objects;
import java.util.concurrent.Callable;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.terminal.Terminal;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code agent}: the composition root. Wires everything by constructor and opens the REPL. */
@Command(name = "agent", mixinStandardHelpOptions = true, version = "hmp-agent 0.1.0",
        description = {"A terminal agent that thinks in ticks and keeps its whole mind in one SQLite file.",
                "With no subcommand: open the REPL. Type a message; the agent answers above the prompt."})
public final class AgentCommand implements Callable<Integer> {
    @Mixin CommonOptions options;

    private final Launch launch;

    AgentCommand(Launch launch) {
        this.launch = Objects.requireNonNull(launch, "launch");
    }

    @Override
    public Integer call() throws Exception {
        AgentConfig config = options.load(launch.env()).config();
        try (Store lockStore = Store.open(config.agent().db(), launch.clock())) {
            RunnerLock lock = RunnerLock.forThisProcess(lockStore);
            String takeover = lock.acquire().map(h -> " (took the file over from pid " + h.pid() + " on " + h.host()
                    + ", which had stopped)").orElse("");
            try {
                return runRepl(config, lock, takeover);
            } finally {
                lock.release();
            }
        }
    }

    private int runRepl(AgentConfig config, RunnerLock lock, String takeover) throws Exception {
        try (Store tickStore = Store.open(config.agent().db(), launch.clock());
             Store replStore = Store.open(config.agent().db(), launch.clock());
             Terminal terminal = launch.terminals().create()) {
            LineReader reader = LineReaderBuilder.builder().terminal(terminal).appName("hmp-agent").build();
            EventRenderer renderer = new EventRenderer(reader);
            LlmClient llm = Wiring.llmClient(config.llm());
            Cycle cycle = Wiring.cycle(config, tickStore, llm, renderer, launch.clock());
            try (RunnerGuard guard = new RunnerGuard(lock, lock.on(tickStore), renderer,
                    tickStore.path().getFileName().toString())) {
                TickLoop loop = new TickLoop(cycle, config.cycle().pollInterval(), guard::mayTick, renderer);
                guard.guard(loop);
                reader.printAbove("hmp-agent: model " + llm.model() + " at " + llm.endpoint() + ", state in "
                        + tickStore.path() + takeover + ". Type a message, /help for commands.");
                Repl repl = new Repl(reader, launch.interactive(), loop, new NotesDao(replStore),
                        new Repl.Describe(llm.endpoint(), llm.model(), tickStore.path().toString()));
                return repl.run();
            }
        }
    }
}
