package dev.hmpagent.runtime;

import dev.hmpagent.commands.Approver;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.context.StandingInstructions;
import dev.hmpagent.cycle.Cycle;
import dev.hmpagent.cycle.LoopStats;
import dev.hmpagent.cycle.Pacer;
import dev.hmpagent.cycle.TickLoop;
import dev.hmpagent.cycle.TimeSource;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.llm.SwitchableLlm;
import dev.hmpagent.process.Confinement;
import dev.hmpagent.safety.SafetyGate;
import dev.hmpagent.store.FileIdentity;
import dev.hmpagent.store.NoteSpool;
import dev.hmpagent.store.RunnerLock;
import dev.hmpagent.store.Store;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * How an {@link AgentRuntime} starts: the file taken and its connections opened, the LLM chosen, the tools and the
 * cycle wired, the loop guarded, the control watcher and the spool; each resource pushed to be closed in reverse
 * order, so a start that fails part-way gives back what it took, the lock last.
 */
final class Startup {
    private Startup() { }

    static AgentRuntime start(AgentConfig config, Launch launch, EventSink sink, Pacer pacer, boolean endOnSafetyStop,
                              Approver approver, List<Path> protectedFiles) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(pacer, "pacer");
        // what a person sees is redacted as what is stored: no secret reaches the terminal either
        EventSink events = new RedactedEvents(sink, new dev.hmpagent.commands.ReplySecrets(
                KnownSecrets.of(config, launch.env()).values())::redactResult);
        Instant startedAt = launch.clock().instant();
        Deque<AutoCloseable> resources = new ArrayDeque<>();
        try {
            Files files = Files.open(config.agent().db(), launch, resources, events);
            // the person's /model choice; the reflex's own switch wraps it, and returns to it
            // the LLM's own choice (llm_select) is read on the tick thread's connection before each call
            dev.hmpagent.store.LlmRegistryDao choices = files.tick().tables().llmRegistry();
            SwitchableLlm llm = LlmChain.chosen(config.llm(), launch.llms(), launch.env()::get, launch.time()::nanoTime,
                    choices::selected);
            // AGENTS.md is read once: context 0 stays the same for the run, and the LLM may not rewrite it
            StandingInstructions instructions = StartWrites.instructions(launch.workingDir(),
                    config.context().promptBudgetTokens(), events);
            Wiring.Tools tools = Wiring.withJitter(Wiring.tools(config, approver, protectedFiles,
                    List.of(instructions.file()), launch.env(), launch.clock(), () -> launch.llms().create(config.llm())),
                    new java.util.SplittableRandom()::nextDouble);
            // in force: a detail (the banner says it); missing: said once, whoever watches
            Confinement confinement = tools.confinement();
            events.emit(confinement.sandboxed() ? new AgentEvent.Info(confinement.line(), true)
                    : new AgentEvent.Problem(confinement.line()));
            String refused = tools.secrets().children().refusedLine();
            if (!refused.isEmpty()) events.emit(new AgentEvent.Problem(refused));
            StartWrites.llms(files.tick(), config.llm(), events);
            AgentRuntime runtime = running(config, launch, new Started(files, llm, instructions, tools, startedAt),
                    pacer, endOnSafetyStop, resources, events);
            runtime.storeSpooled(events);
            return runtime;
        } catch (RuntimeException | Error e) {
            AgentRuntime.closeAll(resources);
            throw e;
        }
    }

    /** What the start has made before the cycle: the file's connections, the LLM, AGENTS.md, the tools. */
    private record Started(Files files, SwitchableLlm llm, StandingInstructions instructions, Wiring.Tools tools,
                           Instant at) { }

    /** The cycle, its loop and the control watcher on what was {@code started}; the runtime that holds them. */
    private static AgentRuntime running(AgentConfig config, Launch launch, Started started, Pacer pacer,
                                        boolean endOnSafetyStop, Deque<AutoCloseable> resources, EventSink events) {
        Files files = started.files();
        Wiring.Tools tools = started.tools();
        Store tickStore = files.tick();
        Cycle cycle = Wiring.cycle(config, tickStore, started.llm(), events, launch.clock(), launch.time(), tools,
                started.instructions(), () -> launch.llms().contextWindow(config.llm()));
        // a process outliving the agent would be untracked: every tree is killed when the runtime closes, and
        // its row closed saying so (popped after the tick thread stopped, before the tick connection closes)
        // the MCP servers' processes are killed after the rows of their calls were closed (popped after these)
        resources.push(tools.mcp());
        // the children end with their parent (SIGTERM, then a kill), after its own processes
        resources.push(tools.children());
        tools.children().tellWith(line -> events.emit(new AgentEvent.Problem(line)));
        resources.push(() -> stopEverything(tools, cycle, tickStore));
        TickLoop loop = loop(config, files, cycle, pacer, launch.time(), endOnSafetyStop, resources, events);
        tools.completions().onArrival(loop::wake);
        // off the prompt's path: each server starts on a thread of its own, its tools appear when it answers
        tools.mcp().startInBackground(events);
        // a halt stops what Wiring registered on the cycle's stop signal: calls, process trees, delegated and MCP calls
        // `agent spawn` asks through the same channel: the child is started and recorded on the watcher's connection
        Store control = files.control();
        ControlWatcher watcher = push(resources, new ControlWatcher(control, cycle.stops(), loop::wake, r -> {
            if (r.kind().equals("spawn")) {
                events.emit(new AgentEvent.Info(tools.children().spawnRequested(r.reason(), control.tables().peers())));
            }
        }, line -> events.emit(new AgentEvent.Problem(line))));
        if (config.a2a().serves()) {   // a peer's message is a note: the watcher sees it and wakes the loop
            events.emit(new AgentEvent.Info(push(resources, a2a(config, launch)).describe(), false));
        }
        NoteSpool inbox = new NoteSpool(files.input(), files.input().tables().notes());
        return new AgentRuntime(resources, config, tickStore, started.llm(), loop, inbox, files.takeover()
                + StartWrites.bannerPart(started.instructions()), watcher, started.at(), tools.confinement(),
                files.identity(), tools.mcp());
    }

    /** The A2A server of {@code [a2a]}, on a connection of its own to the agent's file. */
    static dev.hmpagent.a2a.server.A2aServer a2a(AgentConfig config, Launch launch) {
        return dev.hmpagent.a2a.server.A2aServer.start(new dev.hmpagent.a2a.server.A2aServer.Settings(
                config.agent().db(), launch.clock(), config.a2a(), launch.env(), config.agent().name(),
                dev.hmpagent.text.AppVersion.current(),
                dev.hmpagent.a2a.server.A2aServer.Settings.BLOCKING_WAIT));
    }

    /** The connections of one run on the file, its lock taken; each pushed on the resources to close. */
    private record Files(RunnerLock lock, FileIdentity identity, String takeover, Store tick, Store input,
                         Store control) {
        static Files open(Path db, Launch launch, Deque<AutoCloseable> resources, EventSink events) {
            Store lockStore = push(resources, Store.open(db, launch.clock()));
            // the file just opened: the heartbeat stops the agent should the path come to name another (or none)
            FileIdentity identity = FileIdentity.of(lockStore.path());
            RunnerLock lock = RunnerLock.forThisProcess(lockStore);
            String takeover = lock.acquire().map(h -> " (took the file over from pid " + h.pid() + " on " + h.host()
                    + ", which had stopped)").orElse("");
            resources.push(lock::release);
            Store tickStore = push(resources, lockStore.connectAgain());
            StartWrites.recoverOrphans(tickStore, events);
            // typed lines must not freeze the prompt for the full busy timeout: a locked file sends them to the
            // spool quickly, and the retry stores them within a second of the lock being free
            Store inputStore = push(resources, lockStore.connectAgain(AgentRuntime.INPUT_BUSY_TIMEOUT));
            Store controlStore = push(resources, lockStore.connectAgain(AgentRuntime.INPUT_BUSY_TIMEOUT));
            return new Files(lock, identity, takeover, tickStore, inputStore, controlStore);
        }
    }

    /** The tick loop, guarded: first thing in every iteration, still the file's runner, and the persisted state lets it think. */
    private static TickLoop loop(AgentConfig config, Files files, Cycle cycle, Pacer pacer, TimeSource time,
                                 boolean endOnSafetyStop, Deque<AutoCloseable> resources, EventSink events) {
        AtomicReference<TickLoop> loopRef = new AtomicReference<>();
        RunnerGuard guard = push(resources, new RunnerGuard(files.lock(), files.lock().on(files.tick()), events,
                files.identity(), () -> published(cycle, loopRef.get())));
        SafetyGate gate = new SafetyGate(cycle.stops(), events, cycle::endRestIfDue,
                () -> files.tick().tables().safety().latestAudit(1).stream().findFirst());
        TickLoop loop = new TickLoop(cycle, pacer, time, config.llm().giveUp(), () -> {
            if (!guard.mayTick()) return false;
            if (gate.mayThink()) return true;
            // the reflex's rest ends by itself: a run asked to exit on a stop waits it out
            if (endOnSafetyStop && !gate.resting()) loopRef.get().end(TickLoop.End.SAFETY_STOP);
            return false;
        }, events);
        loopRef.set(loop);
        guard.guard(loop);
        return loop;
    }

    /**
     * On the way out (the tick thread has stopped): kills every process and cancels every second LLM call, writes
     * the results they reported on the tick connection, and ends any row still running, each saying the agent
     * exited. A file that refuses the write leaves them to the next start, which marks them offline.
     */
    private static void stopEverything(Wiring.Tools tools, Cycle cycle, Store tickStore) {
        tools.mcp().exiting();   // the servers this halt kills end with the agent: no failure, no restart
        tools.stopAll(dev.hmpagent.commands.catalogue.ShellCommands.STOPPED_AT_EXIT);
        cycle.recordResults();
        tickStore.inTransaction(() -> tickStore.tables().processLog().stopRunning(dev.hmpagent.commands.catalogue.ShellCommands.STOPPED_AT_EXIT));
    }

    /** What the heartbeat publishes for `agent status`: the phase, and the loop's figures once it exists. */
    private static RunnerLock.Published published(Cycle cycle, TickLoop loop) {
        String phase = cycle.status().phase().name();
        if (loop == null) return new RunnerLock.Published(phase, 0, 0);
        LoopStats stats = loop.stats();
        return new RunnerLock.Published(phase, stats.hz(), stats.noOpTicks());
    }

    private static <T extends AutoCloseable> T push(Deque<AutoCloseable> resources, T resource) {
        resources.push(resource);
        return resource;
    }
}
