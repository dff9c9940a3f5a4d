package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import dev.hmpagent.runtime.AgentRuntime;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.safety.SafetyGate;
import dev.hmpagent.cycle.TickLoop;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.SafetyStatus;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.repl.Costs;
import dev.hmpagent.repl.EventRenderer;
import dev.hmpagent.repl.Repl;
import dev.hmpagent.repl.JLineScreen;
import dev.hmpagent.repl.Verbosity;
import dev.hmpagent.repl.Inspect;
import dev.hmpagent.config.LoadedConfig;
import dev.hmpagent.store.Store;
import java.time.ZoneId;
import java.nio.file.Path;
import java.util.ArrayList;
import dev.hmpagent.repl.SlashCommand;
import java.util.List;
import org.jline.utils.AttributedString;
import picocli.CommandLine.Option;
import dev.hmpagent.cycle.WakeOrPollPacer;
import java.util.Objects;
import java.util.concurrent.Callable;
import org.jline.reader.LineReader;
import org.jline.terminal.Terminal;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code agent}: the composition root. Wires the runtime by constructor and opens the REPL on it. */
@Command(name = "agent", mixinStandardHelpOptions = true,
        description = {"A terminal agent that thinks in ticks and keeps its whole mind in one SQLite file.",
                "With no subcommand: open the REPL. Type a message; the agent answers above the prompt."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  agent                                  # the REPL on ./agent.db, Ollama here",
                "  agent --base-url https://api.openai.com/v1 --model gpt-4o-mini",
                "  printf 'What is in README.md?\\n' | agent -q  # answer on stdout, then exit",
                "  printf 'What is 2+2?\\n' | agent --json  # JSON lines, for scripts"})
public final class AgentCommand implements Callable<Integer> {
    @Mixin CommonOptions options;

    @Option(names = "--no-color", description = "Plain output: no colour or dim text (also NO_COLOR=1; CLICOLOR_FORCE=1 forces colour).")
    boolean noColor;

    /** The levels --verbose takes: what bash and zsh complete it to. */
    static final class Levels extends java.util.ArrayList<String> {
        Levels() {
            super(java.util.List.of("quiet", "normal", "full"));
        }
    }

    @Option(names = "--verbose", arity = "0..1", fallbackValue = "normal", paramLabel = "LEVEL",
            completionCandidates = Levels.class, description = "How much of the machinery the REPL shows: quiet (default), normal (thoughts and command results) or full.")
    String verbose;

    @Option(names = {"-q", "--quiet"}, description = "No line of figures (tokens, time, cost) after each LLM call;"
            + " answers, problems and notices stay. Piped, the bare answers go to stdout and, with -q, only problems"
            + " to stderr.")
    boolean quiet;

    @Option(names = "--json", description = "For scripts: one JSON object per answer on stdout (text, model, tokens,"
            + " cost, the tick's outcome) and a last one with the exit code and why; problems on stderr.")
    boolean json;

    @Option(names = {"-p", "--prompt"}, paramLabel = "TEXT", description = "Ask once, as piped input does, and exit:"
            + " TEXT (several lines too) is one message; the bare answer goes to stdout (with --json, JSON lines).")
    String prompt;

    @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

    /** How long the REPL's readers wait for the tick thread's write lock before they answer with what they have. */
    static final java.time.Duration INSPECT_BUSY_TIMEOUT = java.time.Duration.ofMillis(500);

    private final Launch launch;

    AgentCommand(Launch launch) {
        this.launch = Objects.requireNonNull(launch, "launch");
    }

    @Override
    public Integer call() throws Exception {
        LoadedConfig loaded = options.load(launch.env());
        AgentConfig config = loaded.config();
        Verbosity verbosity = verbosity();
        Path db = config.agent().db().toAbsolutePath();
        Path history = historyFile(db);
        boolean interactive = interactive();
        try (Terminal terminal = launch.terminals().create()) {
            boolean colour = ColorChoice.colour(launch.env(), noColor, interactive && JLineScreen.capable(terminal));
            LineReader reader = ReplReader.build(terminal, interactive ? history : null, colour);
            // piped, a script reads the answers alone on stdout; errors, notices and figures go to stderr
            JLineScreen screen = interactive ? new JLineScreen(reader, colour, Repl.PROMPT)
                    : JLineScreen.apart(reader, colour, Repl.PROMPT, spec.commandLine().getErr());
            List<Path> protectedFiles = new ArrayList<>(options.configFiles(launch.env()));
            protectedFiles.add(history);
            ReplApprover approver = new ReplApprover(text -> screen.above(new AttributedString(text)), interactive);
            DeferredFacts facts = new DeferredFacts();
            Costs costs = new Costs(config.llm().prices());
            EventRenderer renderer = renderer(screen, db, verbosity, facts, costs);
            // piped, a script reads the bare answers (or JSON) alone; the renderer's lines go to stderr
            OneShotPrinter oneShot = interactive ? null : new OneShotPrinter(screen, renderer,
                    new OneShotPrinter.Mode(json, quiet), costs, launch.clock());
            EventSink events = oneShot == null ? renderer : oneShot;
            try (AgentRuntime runtime = AgentRuntime.start(config, launch, events,
                    new WakeOrPollPacer(config.cycle().pollInterval()), false, approver, protectedFiles);
                 Store inspectStore = runtime.connectAgain(INSPECT_BUSY_TIMEOUT);
                 Store factsStore = runtime.connectAgain(INSPECT_BUSY_TIMEOUT);
                 screen) {
                Session session = new Session(loaded, db, interactive, reader, screen, approver, facts, costs, renderer,
                        events);
                int code = session(session, runtime, inspectStore, factsStore);
                if (oneShot != null) oneShot.exited(code, ExitCodes.MEANINGS.get(code), runtime.safety().label());
                return code;
            }
        }
    }

    /** Whether a person types at a terminal (not a pipe, --json or -p); a blank -p is refused. */
    private boolean interactive() {
        if (prompt != null && prompt.isBlank()) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "-p takes the message to send, e.g. agent -p 'what is 2+2?'");
        }
        // a script's --json reads its lines as from a pipe, even at a terminal: no line editor, no transcript
        return launch.interactive() && !json && prompt == null;
    }

    /** The renderer exists before the runtime (it shows what starting does); its facts come once the file is open. */
    private EventRenderer renderer(JLineScreen screen, Path db, Verbosity verbosity, DeferredFacts facts, Costs costs) {
        EventRenderer renderer = new EventRenderer(screen, db.toString(), launch.clock(), verbosity, facts, costs);
        if (quiet) renderer.hideFigures();
        return renderer;
    }

    /** {@code -p TEXT} as piped input: one line, or a {@code """} block when it has several (one message either way). */
    static java.io.Reader promptLines(String text) {
        String block = Repl.BLOCK;
        return new java.io.StringReader(text.contains("\n") ? block + "\n" + text + "\n" + block + "\n" : text + "\n");
    }

    private Verbosity verbosity() {
        return verbose == null ? Verbosity.QUIET : Verbosity.parse(verbose).orElseThrow(() ->
                new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
                        "--verbose takes quiet, normal or full, not '" + verbose + "'"));
    }

    /** What the REPL is made of before the runtime starts: the terminal's side of a session. */
    private record Session(LoadedConfig loaded, Path db, boolean interactive, LineReader reader, JLineScreen screen,
                           ReplApprover approver, DeferredFacts facts, Costs costs, EventRenderer renderer,
                           EventSink events) {
    }

    /**
     * The inspecting slash commands, {@code /mcp}: the MCP servers, their state and tools, and {@code /budget}: the
     * task's budget, shown and raised.
     */
    private static List<SlashCommand> slashCommands(Inspect inspect, AgentRuntime runtime, long tokenBudget,
                                                    JLineScreen screen) {
        List<SlashCommand> all = new java.util.ArrayList<>(inspect.commands());
        all.add(new SlashCommand("/mcp", "", "the MCP servers of agent.toml, their state and their tools",
                args -> McpListCommand.listing(runtime.mcp(), screen.hasLiveRegion() ? screen.width() - 1 : 0)));
        all.add(new ReplBudget(runtime::connectAgain, tokenBudget).command());
        return all;
    }

    /** The REPL on a started runtime, until the person leaves or the loop ends; the exit code. */
    private int session(Session s, AgentRuntime runtime, Store inspectStore, Store factsStore)
            throws InterruptedException {
        AgentConfig config = s.loaded().config();
        Inspect inspect = new Inspect(inspectStore, ZoneId.systemDefault(), runtime.cycle().status().lastTickId(),
                runtime.startedAt(),
                new Inspect.Budgets(config.safety().tokenBudget(), config.safety().dailyTokenBudget()),
                new ModelChoices(runtime.llm(), inspectStore.tables().llmRegistry(), config.llm(), launch.env()::get),
                () -> ConfigCommand.lines(s.loaded(), launch.clock()), new TickLines()::line);
        ReplFacts replFacts = new ReplFacts(factsStore, inspect::tokens, runtime.llm(), () -> runtime.cycle().status());
        s.facts().set(replFacts);
        JLineScreen screen = s.screen();
        if (s.interactive()) {
            screen.above(new AttributedString("hmp-agent: " + runtime.banner() + ". Type a message, /help for commands."));
            Resumed.lines(runtime.connectAgain(), screen.width()).forEach(l -> screen.above(new AttributedString(l)));
        }
        Repl repl = new Repl(s.reader(), s.interactive() ? null : prompt != null ? promptLines(prompt)
                        : launch.terminals().piped(s.reader().getTerminal()),
                screen, runtime.loop(), runtime.inbox(),
                new Repl.Describe(() -> runtime.llm().endpoint(), () -> runtime.llm().model(), s.db().toString(),
                        s.costs()),
                config.llm().giveUp(), controls(runtime, replFacts, inspect), s.approver(), s.renderer(),
                slashCommands(inspect, runtime, config.safety().tokenBudget(), screen), launch.clock().withZone(java.time.ZoneId.systemDefault()));
        ReplReader.complete(s.reader(), repl.commands());
        runtime.startThinking(s.events());
        try (ReplClock ticker = ReplClock.start(screen.hasLiveRegion(), () -> {
            replFacts.refresh();
            s.renderer().refresh();
        })) {
            TickLoop.End end = repl.run();
            runtime.farewell(end).ifPresent(line -> s.events().emit(new AgentEvent.Problem(line)));
            return exitCode(end, runtime, s.interactive());
        } finally {
            ReplReader.saveHistory(s.reader());
        }
    }

    /** The REPL's history: beside the database, shared by every start on that file. */
    static Path historyFile(Path db) {
        return db.resolveSibling(db.getFileName() + ".history");
    }

    /** /halt, /unlock and the safety part of /status, on the runtime's file. */
    static Repl.Controls controls(AgentRuntime runtime, ReplFacts facts, Inspect inspect) {
        return new RuntimeControls(runtime, facts, inspect);
    }

    /** The REPL's controls over a running agent. */
    private record RuntimeControls(AgentRuntime runtime, ReplFacts facts, Inspect inspect) implements Repl.Controls {
        @Override
        public boolean active() {
            SafetyStatus s = runtime.safety();
            return s.active() || s.resting();   // a message ends the reflex's rest: nothing to unlock
        }

        @Override
        public java.util.Optional<dev.hmpagent.repl.ModelUsage> usage() {
            return inspect.usage();
        }

        @Override
        public int dropUnread() {
            return runtime.dropUnread();
        }

        @Override
        public dev.hmpagent.repl.TokenFigures tokens() {
            return facts.tokens();
        }

        @Override
        public String safety() {
            SafetyStatus s = runtime.safety();
            return s.active() ? s.label() : SafetyGate.describe(s);
        }

        @Override
        public String halt(String reason) {
            SafetyControl.Change o = runtime.control(true, reason);
            return o.result() == SafetyControl.Result.ALREADY ? "already " + SafetyGate.describe(o.after())
                    : "halted: " + o.after().label() + "; /unlock (or `agent unlock`) resumes";
        }

        @Override
        public String unlock(String reason) {
            SafetyControl.Change o = runtime.control(false, reason);
            return switch (o.result()) {
                case ALREADY -> "already ACTIVE: nothing to unlock";
                case MOVED -> "unlocked: ACTIVE again (was " + o.before().label() + ")";
                case REFUSED -> "cannot unlock " + o.before().label() + ": only more budget releases it";
            };
        }
    }

    /**
     * The process exit code for why the loop ended (DESIGN.md, exit codes). Piped, lines still waiting
     * to be stored mean the input was not all taken: not a success; a person who quits was told.
     */
    static int exitCode(TickLoop.End end, AgentRuntime runtime, boolean interactive) {
        return switch (end) {
            case STOPPED -> interactive ? ExitCodes.OK
                    : runtime.stopped() ? ExitCodes.STOPPED   // halted: what was piped in is not answered
                    : runtime.inbox().waiting() > 0 ? ExitCodes.DATABASE
                    // the LLM answered, but nothing it sent could be shown: never 0 with a message unanswered
                    : runtime.cycle().leftUnanswered() ? ExitCodes.NOTHING_SHOWN : ExitCodes.OK;
            case FAILED -> ExitCodes.FAILURE;
            case LLM_GAVE_UP -> ExitCodes.LLM_UNAVAILABLE;
            // the LLM refused for good; when that refusal stopped the agent (every LLM's quota spent) it is a stop
            case LLM_REJECTED -> runtime.stopped() ? ExitCodes.STOPPED : ExitCodes.CONFIG;
            case DATABASE, FILE_GONE -> ExitCodes.DATABASE;
            case LOST_FILE -> ExitCodes.IN_USE;
            case SAFETY_STOP -> ExitCodes.STOPPED;
        };
    }
}
