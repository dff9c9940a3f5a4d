package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import dev.hmpagent.a2a.ChildAgents;
import dev.hmpagent.runtime.AgentRuntime;
import dev.hmpagent.commands.Approver;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.cycle.FixedRatePacer;
import dev.hmpagent.cycle.TickLoop;
import dev.hmpagent.event.AgentEvent;
import java.time.ZoneId;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code agent run}: the same cycle with no terminal UI, on a fixed clock. Other processes feed it
 * ({@code agent note}) and steer it ({@code agent halt}, {@code agent unlock}) through the file,
 * and watch it ({@code agent status}, {@code agent log}); it prints one line per event.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run the agent headless on a fixed clock; one line per event on stdout.",
                "SIGTERM/SIGINT stop it cleanly (not a halt): exit 0, or 143/130 when an LLM call was abandoned."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  agent run --hz 2                       # two ticks a second until stopped",
                "  agent note \"sum up today\" && agent run --until-idle",
                "  agent run --json --exit-on-lockout >> ~/agents/ops.jsonl"})
final class RunCommand extends Subcommand {
    @Option(names = "--hz", paramLabel = "RATE", description = "Ticks a second, 0.1 to 50 (default: run.hz, 1).")
    Double hz;

    @Option(names = "--catch-up", description = "After a slow tick, run the missed frames back to back "
            + "(at most run.max_catch_up) instead of skipping them.")
    boolean catchUp;

    @Option(names = "--max-ticks", paramLabel = "N", description = "Exit 0 after N clock frames.")
    Long maxTicks;

    @Option(names = "--until-idle", description = "Exit once nothing is left to answer: no unread note, no work pending "
            + "(waits through LLM back-off up to llm.give_up_s, then exits 6).")
    boolean untilIdle;

    @Option(names = "--exit-on-lockout", description = "Exit 7 as soon as the agent is stopped or locked, "
            + "instead of waiting for `agent unlock`; not for the reflex's rest, which ends by itself.")
    boolean exitOnLockout;

    @Option(names = "--json", description = "JSON lines (with a UTC timestamp and tick id) instead of text lines"
            + " (which start with the local time).")
    boolean json;

    @Option(names = {"-v", "--verbose"}, description = "Also print thoughts, a line for each frame with nothing to do,"
            + " the machinery's notices and each command's result as the model read it.")
    boolean verbose;

    RunCommand(AgentCommand root, Launch launch) {
        super(root, launch);
    }

    @Override
    public Integer call() throws Exception {
        AgentConfig config = config();
        double rate = hz != null ? hz : config.run().hz();
        if (!(rate >= FixedRatePacer.MIN_HZ && rate <= FixedRatePacer.MAX_HZ)) {
            throw new ParameterException(spec.commandLine(), String.format(Locale.ROOT,
                    "--hz %s is out of range: use a rate from %.1f to %.0f ticks a second", rate,
                    FixedRatePacer.MIN_HZ, FixedRatePacer.MAX_HZ));
        }
        if (maxTicks != null && maxTicks <= 0) {
            throw new ParameterException(spec.commandLine(), "--max-ticks " + maxTicks + " must be at least 1");
        }
        HeadlessPrinter printer = new HeadlessPrinter(out(), launch().clock(), ZoneId.systemDefault(), json, verbose,
                config.agent().db().toAbsolutePath().toString());
        FixedRatePacer pacer = new FixedRatePacer(rate,
                catchUp ? FixedRatePacer.Overrun.CATCH_UP : FixedRatePacer.Overrun.SKIP, config.run().maxCatchUp());
        // taken first: a SIGINT while the agent starts (the sandbox probe, MCP servers) is a clean stop too, not the
        // JVM's exit 130 with the start half done
        AtomicInteger signal = new AtomicInteger();
        AtomicReference<AgentRuntime> started = new AtomicReference<>();
        stopOn("TERM", 15, started, signal, launch().signals());
        stopOn("INT", 2, started, signal, launch().signals());
        stopWithParent(launch().env().get(ChildAgents.PARENT_PID), started, signal);
        try (AgentRuntime runtime = AgentRuntime.start(config, launch(), printer, pacer, exitOnLockout,
                Approver.NOBODY, configFiles())) {
            started.set(runtime);
            printer.emit(new AgentEvent.Info(String.format(Locale.ROOT, "hmp-agent run at %.2f Hz: %s", rate,
                    runtime.banner())));
            TickLoop loop = runtime.loop();
            if (maxTicks != null) loop.limitFrames(maxTicks);
            loop.reportNoOps(verbose);
            if (untilIdle) loop.stop(true);
            if (signal.get() > 0) loop.stop(false);   // it came during the start: the loop ends before its first tick
            runtime.startThinking(printer);
            TickLoop.End end = loop.awaitStopped();
            runtime.farewell(end).ifPresent(line -> printer.emit(new AgentEvent.Problem(line)));
            if (signal.get() > 0) return signal.get() > 1000 ? 128 + signal.get() - 1000 : ExitCodes.OK;
            return AgentCommand.exitCode(end, runtime, !untilIdle);
        }
    }

    /**
     * A spawned child ({@code parentPid} from {@link ChildAgents#PARENT_PID}) stops as on SIGTERM when its parent
     * process ends, however it ended: a SIGKILLed parent runs none of its stops, and its children would run on.
     */
    private static void stopWithParent(String parentPid, AtomicReference<AgentRuntime> started, AtomicInteger signal) {
        if (parentPid == null || !parentPid.strip().matches("\\d{1,18}")) return;
        Runnable stop = () -> stop(15, started, signal);
        ProcessHandle.of(Long.parseLong(parentPid.strip())).ifPresentOrElse(p -> p.onExit().thenRun(stop), stop);
    }

    /**
     * SIGTERM and SIGINT end the run cleanly, and are not a halt: the tick in flight finishes writing
     * (an LLM call in flight is abandoned, its reply kept as interrupted), the lock is released, and
     * the exit code is 0, or 128 + the signal when a call was abandoned.
     */
    private static void stopOn(String name, int number, AtomicReference<AgentRuntime> started, AtomicInteger signal,
                               Launch.Signals signals) {
        signals.on(name, () -> stop(number, started, signal));
    }

    /** Stops the run as signal {@code number} does: at once when it runs, else once its start is done. */
    private static void stop(int number, AtomicReference<AgentRuntime> started, AtomicInteger signal) {
        AgentRuntime runtime = started.get();
        if (runtime == null) {   // still starting: the run stops once the start is done
            signal.compareAndSet(0, number);
            return;
        }
        boolean abandoned = runtime.cycle().cancelInFlight();
        signal.compareAndSet(0, abandoned ? 1000 + number : number);
        runtime.loop().stop(false);
    }
}
