package dev.hmpagent.cli;

import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.cycle.Cycle;
import dev.hmpagent.cycle.TickLoop;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.repl.EventRenderer;
import dev.hmpagent.repl.Repl;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.RunnerLock;
import dev.hmpagent.store.Store;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
    static final Duration HEARTBEAT_EVERY = Duration.ofSeconds(5);

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
            TickLoop loop = new TickLoop(cycle, config.cycle().pollInterval(), () -> { }, renderer);
            reader.printAbove("hmp-agent: model " + llm.model() + " at " + llm.endpoint() + ", state in "
                    + tickStore.path() + takeover + ". Type a message, /help for commands.");
            Repl repl = new Repl(reader, launch.interactive().test(terminal), loop, new NotesDao(replStore),
                    new Repl.Describe(llm.endpoint(), llm.model(), tickStore.path().toString()));
            ScheduledExecutorService heartbeat = heartbeat(lock, loop, renderer, tickStore.path().getFileName().toString());
            try {
                return repl.run();
            } finally {
                heartbeat.shutdownNow();
                heartbeat.awaitTermination(10, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * Keeps the runner lock fresh every {@link #HEARTBEAT_EVERY}. If another agent has taken the
     * file over (this process was suspended past the stale limit), the loop stops: two cycles on
     * one file would think twice and fight over tick ids.
     */
    private static ScheduledExecutorService heartbeat(RunnerLock lock, TickLoop loop, EventSink events, String file) {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "heartbeat");
            t.setDaemon(true);
            return t;
        });
        executor.scheduleWithFixedDelay(() -> {
            try {
                if (!lock.heartbeat()) {
                    events.emit(new AgentEvent.Problem("another agent has taken over " + file
                            + "; this one stopped thinking. /quit, and run one agent per file"));
                    loop.stop(false);
                    executor.shutdown();
                }
            } catch (RuntimeException e) {
                // a missed heartbeat (file busy) is retried in 5 s; the lock goes stale only after 30 s
            }
        }, HEARTBEAT_EVERY.toMillis(), HEARTBEAT_EVERY.toMillis(), TimeUnit.MILLISECONDS);
        return executor;
    }
}
