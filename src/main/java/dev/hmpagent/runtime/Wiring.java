package dev.hmpagent.runtime;

import dev.hmpagent.a2a.client.A2aClient;
import dev.hmpagent.a2a.client.PeerSends;
import dev.hmpagent.a2a.ChildAgents;
import dev.hmpagent.commands.Approver;
import dev.hmpagent.commands.CommandGate;
import dev.hmpagent.commands.Completions;
import dev.hmpagent.config.SafetySection;
import dev.hmpagent.mcp.McpServers;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.process.AlertCommand;
import dev.hmpagent.safety.Guides;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.SafetyMonitor;
import dev.hmpagent.safety.SafetyState;
import dev.hmpagent.safety.SafetyRules;
import dev.hmpagent.safety.StopSignal;
import dev.hmpagent.policy.ControlSurface;
import dev.hmpagent.policy.FileRoots;
import dev.hmpagent.policy.ShellPolicy;
import dev.hmpagent.policy.ShellRules;
import dev.hmpagent.process.Confinement;
import dev.hmpagent.process.ProcessRunner;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.context.StandingInstructions;
import dev.hmpagent.cycle.Cycle;
import dev.hmpagent.delegation.LlmTasks;
import dev.hmpagent.cycle.CallRows;
import dev.hmpagent.llm.MeteredLlm;
import dev.hmpagent.store.LlmCall;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.cycle.TimeSource;
import dev.hmpagent.store.Store;
import java.time.Clock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.function.Supplier;

/** The object graph of one agent, built by constructors from a validated config. Tests build through it too. */
public final class Wiring {
    static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    /** The result of a process, delegated call or MCP call a halt stopped. */
    static final String HALTED = "killed by a halt";

    private Wiring() { }

    /**
     * What the agent acts on the world with, built once per runtime: the process runner (close it with
     * {@code processes().stopAll}), the file roots, the shell policy, who answers its questions, and where
     * external results arrive.
     */
    public record Tools(ProcessRunner processes, FileRoots roots, ShellPolicy shell, Approver approver,
                        Completions completions, LlmTasks llmTasks, java.util.function.DoubleSupplier jitter,
                        java.util.function.Function<String, String> variables, Confinement confinement,
                        McpServers mcp, KnownSecrets secrets, PeerSends peers, ChildAgents children) {
        /**
         * A halt: every delegated LLM call, process tree, MCP call and send to a peer stopped, each whatever the others
         * did (an MCP server that throws on its cancel does not keep a process tree alive); the first failure is
         * thrown after all ran.
         */
        public void stopAll(String why) {
            StopSignal.runEach(List.of(llmTasks::cancelAll, () -> processes.stopAll(why), () -> mcp.cancelAll(why),
                    peers::cancelAll));
        }
    }

    /**
     * The tools for {@code config}: the control surface (the database and its side files, the config files in
     * {@code protectedFiles}) is denied whatever the rules say; processes get {@code env}'s allow-list, never a key.
     */
    public static Tools tools(AgentConfig config, Approver approver, List<Path> protectedFiles, Map<String, String> env,
                              Clock clock, Supplier<LlmClient> taskLlms) {
        return tools(config, approver, protectedFiles, List.of(), env, clock, taskLlms);
    }

    /**
     * As {@link #tools(AgentConfig, Approver, List, Map, Clock, Supplier)}, and {@code askedFiles} (the person's
     * standing instructions, AGENTS.md) may be read but are written only with a person's yes.
     */
    public static Tools tools(AgentConfig config, Approver approver, List<Path> protectedFiles, List<Path> askedFiles,
                              Map<String, String> env, Clock clock, Supplier<LlmClient> taskLlms) {
        ControlSurface surface = controlSurface(config, protectedFiles).askingBeforeWrites(askedFiles);
        FileRoots roots = FileRoots.forDatabase(config.files().roots(), config.agent().db(), surface);
        // the operating system confines what the LLM runs where it can; the text policy is the first filter
        Confinement confinement = Confinements.choose(config.sandbox(), roots.roots(), surface, env);
        ShellRules rules = new ShellRules(config.policy().shellDeny(), config.policy().shellAsk(),
                config.policy().shellAllow());
        // without the sandbox the text policy is all there is: its stricter fallback rules
        ShellPolicy shell = confinement.sandboxed()
                ? new ShellPolicy(rules, surface.guardedBySandbox(), approver.personPresent())
                : ShellPolicy.unconfined(rules, Confinements.defaultAllow(), surface, approver.personPresent(),
                roots.roots());
        // every child gets the allow-list, never a key: commands, scripts, the alert command, MCP servers
        KnownSecrets secrets = KnownSecrets.of(config, env);
        ProcessRunner processes = new ProcessRunner(config.shell().maxProcesses(), config.shell().outputCapBytes(), clock,
                secrets.children(), confinement.launcher());
        LlmTasks tasks = new LlmTasks(() -> new MeteredLlm<>(taskLlms.get(), clock, CallRows.as(LlmCall.Purpose.TASK)),
                config.llm().temperature(), config.llm().maxTokens());
        Map<String, String> environment = Map.copyOf(env);
        // a lookup, not the map: a registry entry's key is read by its variable's name, and never printed with the tools
        // the MCP servers' variables are read the same way; the servers start only when the runtime says
        return new Tools(processes, roots, shell, approver, new Completions(), tasks, () -> 0.0, environment::get,
                confinement, new McpServers(config.mcp().servers(), environment::get, confinement,
                config.mcp().catalogueChars(), secrets.children().variables()), secrets,
                peerSends(config.agent().db(), clock, environment),
                ChildAgents.real(config.agent().db(), config.llm(), environment, inherited(config),
                        config.a2a().maxChildren()));
    }

    /**
     * The sends to peers over A2A: a peer's token is read from the environment by its variable's name; each send's
     * delivery is written on a connection of its own, opened for that write.
     */
    static PeerSends peerSends(Path db, Clock clock, Map<String, String> environment) {
        return new PeerSends(new A2aClient(A2aClient.DEFAULT_SEND, environment::get), (noteId, status) -> {
            try (Store own = Store.open(db, clock)) {
                own.tables().peers().deliver(noteId, status);
            } catch (dev.hmpagent.store.StoreException busy) {
                // the file refused the write: the note keeps "sent", and the answer still arrives as the row's result
            }
        });
    }

    /** The parent's settings a child it spawns runs with too: its sandbox's mode and network. */
    private static Map<String, String> inherited(AgentConfig config) {
        return Map.of("AGENT_SANDBOX_MODE", config.sandbox().mode().configName(),
                "AGENT_SANDBOX_NETWORK", config.sandbox().network() ? "on" : "off");
    }

    /**
     * The one list of what controls the agent (the database and its side files, the history, the scripts folder,
     * {@code configFiles}), used by the text policy, the file commands and the sandbox alike.
     */
    static ControlSurface controlSurface(AgentConfig config, List<Path> configFiles) {
        return ControlSurface.forDatabase(config.agent().db(), List.of(scriptsDir(config)), configFiles);
    }

    /** How this run would confine the LLM's processes (what {@code agent check} reports). */
    public static Confinement confinement(AgentConfig config, List<Path> configFiles, Map<String, String> env) {
        ControlSurface surface = controlSurface(config, configFiles);
        return Confinements.choose(config.sandbox(),
                FileRoots.forDatabase(config.files().roots(), config.agent().db(), surface).roots(), surface, env);
    }

    /**
     * Where script_run writes the agent's scripts: beside the database ({@code agent-scripts/} for {@code agent.db}),
     * outside the file roots; its name must not contain the database's, which the policy protects.
     */
    static Path scriptsDir(AgentConfig config) {
        Path db = config.agent().db().toAbsolutePath();
        String name = db.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return db.resolveSibling((dot > 0 ? name.substring(0, dot) : name) + "-scripts");
    }

    /**
     * With {@code sandbox.mode = "required"} and no sandbox: {@code shell} and {@code script_run} are refused (EPERM),
     * saying what is missing and what to install.
     */
    static CommandGate processesRefused(Confinement confinement) {
        return command -> confinement.kind() == Confinement.Kind.REFUSED
                && (command.type().equals("shell") || command.type().equals("script_run"))
                ? CommandGate.Decision.deny(command.type() + " is refused: " + confinement.line()
                        .replaceFirst("^no sandbox: ", "")) : CommandGate.Decision.allow();
    }

    /**
     * The SafetyMonitor on the tick thread's connection, with agent.toml's limits, Guide and alert command; a stop of
     * its own (a lockout, a pause, a limit; not the reflex's rest) halts the children too.
     */
    static SafetyMonitor monitor(AgentConfig config, Store store, EventSink events, Tools tools) {
        SafetySection c = config.safety();
        AlertCommand alert = new AlertCommand(c.alertCommand(), tools.secrets().children().variables());
        Clock clock = Clock.systemUTC();
        return new SafetyMonitor(store, safetyLimits(config), Guides.byName(c.guide()), reason -> {
            alert.alert(reason);
            SafetyState state = new SafetyControl(store).current().state();
            if (state != SafetyState.ACTIVE && state != SafetyState.RESTING) {
                tools.children().haltAll("the parent stopped: " + reason, clock);
            }
        }, line -> events.emit(new AgentEvent.Problem(line)));
    }

    /** The SafetyMonitor's limits as [safety] sets them: the live agent's and {@code agent replay}'s, made in one place. */
    public static SafetyMonitor.Limits safetyLimits(AgentConfig config) {
        SafetySection c = config.safety();
        return new SafetyMonitor.Limits(c.tokenBudget(), c.tickCap(), new SafetyRules.Limits(
                c.repeatAlertAt(), c.repeatLockAt(), c.cascadeWindow(), c.cascadeFailures(),
                SafetyRules.Limits.DEFAULTS.chantPauseAt(), c.loopAlertAt(), c.loopLockAt(),
                c.thrashWindow(), c.thrashFailures(), c.noProgressAlert(), c.noProgressStop(), c.unansweredMessages()),
                c.dailyTokenBudget(), config.stagnation().sleep());
    }

    /** The same tools with retries jittered by {@code random} (a running agent's: a random source). */
    public static Tools withJitter(Tools tools, java.util.function.DoubleSupplier random) {
        return new Tools(tools.processes(), tools.roots(), tools.shell(), tools.approver(), tools.completions(),
                tools.llmTasks(), random, tools.variables(), tools.confinement(), tools.mcp(), tools.secrets(),
                tools.peers(), tools.children());
    }

    /**
     * The cycle on {@code store} (the tick thread's connection), acting through {@code tools} under their policy; it
     * dates what it shows and stores by {@code clock} and measures every wait on {@code time} (monotonic).
     */
    public static Cycle cycle(AgentConfig config, Store store, LlmClient llm, EventSink events, Clock clock,
                              TimeSource time, Tools tools) {
        return CycleWiring.build(config, store, llm, events, clock, time, tools, null, null, OptionalInt::empty);
    }

    /** As {@link #cycle(AgentConfig, Store, LlmClient, EventSink, Clock, TimeSource, Tools)}, context 0 holding {@code instructions}. */
    public static Cycle cycle(AgentConfig config, Store store, LlmClient llm, EventSink events, Clock clock,
                              TimeSource time, Tools tools, StandingInstructions instructions) {
        return cycle(config, store, llm, events, clock, time, tools, instructions, OptionalInt::empty);
    }

    /**
     * As {@link #cycle(AgentConfig, Store, LlmClient, EventSink, Clock, TimeSource, Tools, StandingInstructions)}, with
     * {@code window}: the context window the model's server says it has (asked once, at the first prompt, when
     * context.prompt_form is auto).
     */
    public static Cycle cycle(AgentConfig config, Store store, LlmClient llm, EventSink events, Clock clock,
                              TimeSource time, Tools tools, StandingInstructions instructions,
                              Supplier<OptionalInt> window) {
        return CycleWiring.build(config, store, llm, events, clock, time, tools, null,
                Objects.requireNonNull(instructions, "instructions"), window);
    }

    /** As {@link #cycle(AgentConfig, Store, LlmClient, EventSink, Clock, TimeSource, Tools)}, its commands checked by {@code gate}. */
    public static Cycle cycle(AgentConfig config, Store store, LlmClient llm, EventSink events, Clock clock,
                              TimeSource time, Tools tools, CommandGate gate) {
        return CycleWiring.build(config, store, llm, events, clock, time, tools, Objects.requireNonNull(gate, "gate"),
                null, OptionalInt::empty);
    }


}
