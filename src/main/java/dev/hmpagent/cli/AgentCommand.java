package dev.hmpagent.cli;

import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.cycle.SafetyGate;
import dev.hmpagent.cycle.TickLoop;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.SafetyStatus;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.repl.EventRenderer;
import dev.hmpagent.repl.Repl;
import dev.hmpagent.repl.ReplApprover;
import dev.hmpagent.cycle.WakeOrPollPacer;
import java.util.Objects;
import java.util.concurrent.Callable;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
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
                "  agent --db ~/agents/ops.db --model qwen2.5:7b",
                "  agent --base-url https://api.openai.com/v1 --model gpt-4o-mini",
                "  printf 'What is in README.md?\\n' | agent  # answers, then exits"})
public final class AgentCommand implements Callable<Integer> {
    @Mixin CommonOptions options;

    private final Launch launch;

    AgentCommand(Launch launch) {
        this.launch = Objects.requireNonNull(launch, "launch");
    }

    @Override
    public Integer call() throws Exception {
        AgentConfig config = options.load(launch.env()).config();
        try (Terminal terminal = launch.terminals().create()) {
            LineReader reader = LineReaderBuilder.builder().terminal(terminal).appName("hmp-agent").build();
            EventRenderer renderer = new EventRenderer(reader, config.agent().db().toAbsolutePath().toString());
            ReplApprover approver = new ReplApprover(text -> {
                reader.printAbove(text);
                reader.getTerminal().writer().flush();
            }, launch.interactive());
            try (AgentRuntime runtime = AgentRuntime.start(config, launch, renderer,
                    new WakeOrPollPacer(config.cycle().pollInterval()), false, approver, options.configFiles(launch.env()))) {
                reader.printAbove("hmp-agent: " + runtime.banner() + ". Type a message, /help for commands.");
                Repl repl = new Repl(reader, launch.interactive(), runtime.loop(), runtime.inbox(),
                        new Repl.Describe(runtime.llm().endpoint(), runtime.llm().model(), runtime.db().toString()),
                        config.llm().giveUp(), controls(runtime), approver);
                runtime.startThinking(renderer);
                TickLoop.End end = repl.run();
                runtime.farewell(end).ifPresent(line -> renderer.emit(new AgentEvent.Problem(line)));
                return exitCode(end, runtime, launch.interactive());
            }
        }
    }

    /** /halt, /unlock and the safety part of /status, on the runtime's file. */
    static Repl.Controls controls(AgentRuntime runtime) {
        return new Repl.Controls() {
            @Override
            public String safety() {
                SafetyStatus s = runtime.safety();
                return s.active() ? s.label() : SafetyGate.describe(s);
            }

            @Override
            public String halt(String reason) {
                SafetyControl.Outcome o = runtime.control(true, reason);
                return o.result() == SafetyControl.Result.ALREADY ? "already " + SafetyGate.describe(o.after())
                        : "halted: " + o.after().label() + "; /unlock (or `agent unlock`) resumes";
            }

            @Override
            public String unlock(String reason) {
                SafetyControl.Outcome o = runtime.control(false, reason);
                return switch (o.result()) {
                    case ALREADY -> "already ACTIVE: nothing to unlock";
                    case MOVED -> "unlocked: ACTIVE again (was " + o.before().label() + ")";
                    case REFUSED -> "cannot unlock " + o.before().label() + ": only more budget releases it";
                };
            }
        };
    }

    /**
     * The process exit code for why the loop ended (DESIGN.md, exit codes). Piped, lines still waiting
     * to be stored mean the input was not all taken: not a success; a person who quits was told.
     */
    static int exitCode(TickLoop.End end, AgentRuntime runtime, boolean interactive) {
        return switch (end) {
            case STOPPED -> interactive ? ExitCodes.OK
                    : runtime.stopped() ? ExitCodes.STOPPED   // halted: what was piped in is not answered
                    : runtime.inbox().waiting() > 0 ? ExitCodes.DATABASE : ExitCodes.OK;
            case FAILED -> ExitCodes.FAILURE;
            case LLM_GAVE_UP -> ExitCodes.LLM_UNAVAILABLE;
            case LLM_REJECTED -> ExitCodes.CONFIG;
            case DATABASE -> ExitCodes.DATABASE;
            case LOST_FILE -> ExitCodes.IN_USE;
            case SAFETY_STOP -> ExitCodes.STOPPED;
        };
    }
}
