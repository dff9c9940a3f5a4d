package dev.hmpagent.runtime;

import dev.hmpagent.llm.RegistrySwitch;
import dev.hmpagent.llm.SwitchableLlm;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.commands.CommandBlockParser;
import dev.hmpagent.commands.CommandRegistry;
import dev.hmpagent.commands.Approver;
import dev.hmpagent.commands.CommandExecutor;
import dev.hmpagent.commands.CommandGate;
import dev.hmpagent.commands.catalogue.Catalogue;
import dev.hmpagent.commands.catalogue.CommandOptions;
import dev.hmpagent.commands.CommandQueue;
import dev.hmpagent.commands.FormatSlips;
import dev.hmpagent.commands.ReplySecrets;
import dev.hmpagent.commands.Completions;
import dev.hmpagent.commands.catalogue.CatalogueTools;
import dev.hmpagent.commands.MonitorGate;
import dev.hmpagent.config.SafetySection;
import dev.hmpagent.config.McpSection;
import dev.hmpagent.mcp.McpGate;
import dev.hmpagent.mcp.McpServers;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.safety.Guides;
import dev.hmpagent.safety.SafetyMonitor;
import dev.hmpagent.safety.SafetyRules;
import dev.hmpagent.delegation.LlmTasks;
import dev.hmpagent.commands.PolicyGate;
import dev.hmpagent.commands.catalogue.ShellCommands;
import dev.hmpagent.policy.ControlSurface;
import dev.hmpagent.policy.FileRoots;
import dev.hmpagent.policy.ShellPolicy;
import dev.hmpagent.policy.ShellRules;
import dev.hmpagent.process.AlertCommand;
import dev.hmpagent.process.Confinement;
import dev.hmpagent.process.ProcessRunner;
import dev.hmpagent.process.WriteQuota;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.LlmSection;
import dev.hmpagent.context.ContextAssembler;
import dev.hmpagent.context.ContextSettings;
import dev.hmpagent.context.LiveSettings;
import dev.hmpagent.context.SettingsBounds;
import dev.hmpagent.context.StandingInstructions;
import dev.hmpagent.cycle.Cycle;
import dev.hmpagent.cycle.LlmBreakers;
import dev.hmpagent.cycle.LlmParams;
import dev.hmpagent.cycle.CallRows;
import dev.hmpagent.llm.MeteredLlm;
import dev.hmpagent.cycle.TickWriter;
import dev.hmpagent.cycle.WorldProgress;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.llm.Backoff;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.config.StagnationSection;
import dev.hmpagent.cycle.ReplyReview;
import dev.hmpagent.cycle.ReflexIdle;
import dev.hmpagent.cycle.TimeSource;
import dev.hmpagent.stagnation.ModelSwitch;
import dev.hmpagent.stagnation.ReflexSettings;
import dev.hmpagent.stagnation.StagnationReflex;
import dev.hmpagent.stagnation.HybridComparator;
import dev.hmpagent.stagnation.LlmComparator;
import dev.hmpagent.stagnation.LocalComparator;
import dev.hmpagent.stagnation.ReplyComparator;
import dev.hmpagent.stagnation.SignSettings;
import dev.hmpagent.store.LlmCall;
import dev.hmpagent.store.ScriptsDao;
import dev.hmpagent.store.Store;
import java.time.Clock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;

/** The object graph of one agent, built by constructors from a validated config. Tests build through it too. */
public final class Wiring {
    static final Duration FIRST_RETRY = Duration.ofSeconds(1);

    private Wiring() { }

    /**
     * What the agent acts on the world with, built once per runtime: the process runner (close it with
     * {@code processes().stopAll}), the file roots, the shell policy, who answers its questions, and where
     * external results arrive.
     */
    public record Tools(ProcessRunner processes, FileRoots roots, ShellPolicy shell, Approver approver,
                        Completions completions, LlmTasks llmTasks, java.util.function.DoubleSupplier jitter,
                        java.util.function.Function<String, String> variables, Confinement confinement,
                        McpServers mcp, KnownSecrets secrets) {
        /** A halt: every process tree is killed, every delegated LLM call and every MCP call cancelled. */
        public void stopAll(String why) {
            llmTasks.cancelAll();
            processes.stopAll(why);
            mcp.cancelAll(why);
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
                config.mcp().catalogueChars(), secrets.children().variables()), secrets);
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

    /** The SafetyMonitor on the tick thread's connection, with agent.toml's limits, Guide and alert command. */
    static SafetyMonitor monitor(AgentConfig config, Store store, EventSink events, KnownSecrets secrets) {
        SafetySection c = config.safety();
        AlertCommand alert = new AlertCommand(c.alertCommand(), secrets.children().variables());
        return new SafetyMonitor(store, safetyLimits(config), Guides.byName(c.guide()), alert::alert,
                line -> events.emit(new AgentEvent.Problem(line)));
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

    private static LlmBreakers breakers(SafetyMonitor monitor, LlmSection llm, McpServers mcp) {
        return new LlmBreakers() {
            @Override
            public boolean beforeLlmCall() { return monitor.beforeLlmCall(0); }

            @Override
            public boolean beforeLlmCall(long estimate) { return monitor.beforeLlmCall(estimate); }

            @Override
            public void afterLlmCall(long tokens, boolean countsAsTick) { monitor.afterLlmCall(tokens, countsAsTick); }

            @Override
            public void newTask(long noteId) {
                monitor.newTask(noteId);
                mcp.newTask();   // a changed MCP tool list is shown from the new task on
            }

            @Override
            public void newInput() { monitor.newInput(); }

            @Override
            public void quotaExhausted(String reason) { monitor.quotaExhausted(reason, LlmChain.llmLines(llm)); }

            @Override
            public boolean feelUnlockRefusals(long tickId) { return monitor.feelUnlockRefusals(tickId); }

            @Override
            public void afterTick() { monitor.flush(); }
        };
    }

    /** The reflex's "switch LLM" as the reflex asks for it. */
    private static ModelSwitch modelSwitch(RegistrySwitch models) {
        return new ModelSwitch() {
            @Override
            public boolean available() { return models.available(); }

            @Override
            public String switchToNext() { return models.switchToNext(); }

            @Override
            public Optional<String> restore() { return models.restore(); }
        };
    }

    /** The same tools with retries jittered by {@code random} (a running agent's: a random source). */
    public static Tools withJitter(Tools tools, java.util.function.DoubleSupplier random) {
        return new Tools(tools.processes(), tools.roots(), tools.shell(), tools.approver(), tools.completions(),
                tools.llmTasks(), random, tools.variables(), tools.confinement(), tools.mcp(), tools.secrets());
    }

    /** Step 5 as [stagnation] configures it: the comparator of its method, the signs, the reflex, the chant limits. */
    static ReplyReview review(AgentConfig config, Store store, Clock clock, LlmClient comparisonLlm,
                              LiveSettings.Generation generation, java.util.function.IntUnaryOperator random,
                              Supplier<List<String>> commandTypes, ModelSwitch models, SafetyMonitor monitor,
                              WorldProgress world) {
        StagnationSection s = config.stagnation();
        LocalComparator local = new LocalComparator(s.noveltyThreshold());
        // each comparison call is noted, and written with its tick
        MeteredLlm<LlmCall> metered = new MeteredLlm<>(comparisonLlm, clock, CallRows.as(LlmCall.Purpose.COMPARISON));
        ReplyComparator comparator = switch (s.method()) {
            case LOCAL -> local;
            case LLM -> new LlmComparator(metered, s.maxTokens(), s.noveltyThreshold(), local, LlmChain.judgeForm(config));
            case HYBRID -> new HybridComparator(local, new LlmComparator(metered, s.maxTokens(),
                    s.noveltyThreshold(), local, LlmChain.judgeForm(config)), s.nearIdentical(), s.ambiguousHigh());
        };
        SignSettings signs = new SignSettings(s.noveltyThreshold(), s.lowNoveltyTicks(), s.repeatWindow() > 0,
                s.noGrowthTicks(), s.noStimulusTicks(), SignSettings.DEFAULTS.overheatTicks());
        ReflexSettings.Generation configured = new ReflexSettings.Generation(generation.temperature(),
                generation.presencePenalty(), generation.frequencyPenalty());
        StagnationReflex reflex = new StagnationReflex(store, new ReflexSettings(signs, s.reflex(), s.ratingTicks(),
                s.maxQuestions(), s.sleep(), s.taskSwitch(), configured, config.cycle().historyK()),
                clock, random, commandTypes, models, new ReflexIdle(monitor));
        return new ReplyReview(comparator, local, new CommandBlockParser(new ObjectMapper()), reflex,
                store.tables().responses(), store.tables().stagnation(),
                s.repeatWindow(), new ReplyReview.ChantLimits(s.chantMinPeriod(), s.chantRepeats()), metered::take,
                world);
    }

    /**
     * The cycle on {@code store} (the tick thread's connection), acting through {@code tools} under their policy; it
     * dates what it shows and stores by {@code clock} and measures every wait on {@code time} (monotonic).
     */
    public static Cycle cycle(AgentConfig config, Store store, LlmClient llm, EventSink events, Clock clock,
                              TimeSource time, Tools tools) {
        return build(config, store, llm, events, new Clocks(clock, time), tools, null, null, OptionalInt::empty);
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
        return build(config, store, llm, events, new Clocks(clock, time), tools, null,
                Objects.requireNonNull(instructions, "instructions"), window);
    }

    /** As {@link #cycle(AgentConfig, Store, LlmClient, EventSink, Clock, TimeSource, Tools)}, its commands checked by {@code gate}. */
    public static Cycle cycle(AgentConfig config, Store store, LlmClient llm, EventSink events, Clock clock,
                              TimeSource time, Tools tools, CommandGate gate) {
        return build(config, store, llm, events, new Clocks(clock, time), tools, Objects.requireNonNull(gate, "gate"),
                null, OptionalInt::empty);
    }

    /** The wall clock (what is shown and stored) and the monotonic one (what every wait is measured on). */
    private record Clocks(Clock wall, TimeSource time) { }

    /** The command families the LLM may use, with the bounds of the settings it may change. */
    private record Commands(CommandRegistry registry, ShellCommands shell, SettingsBounds bounds) { }

    private static Commands commands(AgentConfig config, Clock clock, Tools tools) {
        int k = config.cycle().historyK();
        SettingsBounds bounds = new SettingsBounds(Math.min(SettingsBounds.DEFAULTS.historyKMin(), Math.max(k, 0)),
                Math.max(SettingsBounds.DEFAULTS.historyKMax(), k));
        CatalogueTools.Limits limits = new CatalogueTools.Limits(new ShellCommands.Limits(config.shell().timeout(),
                config.shell().maxTimeout(), config.cleanup().minAgeTicks(), scriptsDir(config)),
                config.files().maxReadBytes(), config.files().maxWriteBytes(), config.cycle().maxIdle());
        Catalogue.Families families = Catalogue.all(new CommandOptions(config.cleanup().minAgeTicks(), bounds),
                new CatalogueTools(tools.processes(), tools.roots(), tools.confinement().forModel(),
                        new WriteQuota(tools.roots().roots(), config.sandbox().taskMaxBytes(),
                                config.sandbox().taskMaxFiles()), clock, limits, tools.mcp(), List.of(tools.llmTasks())));
        return new Commands(families.registry(), families.processes(), bounds);
    }

    /** {@code instead} when given (a test's), else the policy; then the sandbox's refusals and the monitor. */
    private static CommandGate gate(Commands commands, Store store, Tools tools, SafetyMonitor monitor,
                                    CommandGate instead, McpSection mcpRules) {
        ScriptsDao scripts = store.tables().scripts();
        CommandGate first = instead != null ? instead : new PolicyGate(commands.registry(), tools.shell(), tools.roots(),
                c -> commands.shell().scriptLaunch(scripts, c))
                .and(new McpGate(mcpRules));
        return first.and(processesRefused(tools.confinement())).and(new MonitorGate(monitor));
    }

    private static TickWriter writer(AgentConfig config, Store store, Tools tools, SafetyMonitor monitor,
                                     ObjectMapper mapper, CommandRegistry registry) {
        ReplySecrets secrets = new ReplySecrets(tools.secrets().values());
        store.scrubResultsWith(secrets::redactResult);
        return new TickWriter(store, new CommandQueue(mapper, config.cycle().maxCommandsPerReply(), secrets, registry), monitor,
                breakers(monitor, config.llm(), tools.mcp()), new FormatSlips(registry, store.tables().settings()));
    }

    private static Cycle build(AgentConfig config, Store store, LlmClient llm, EventSink events, Clocks clocks,
                               Tools tools, CommandGate instead, StandingInstructions instructions,
                               Supplier<OptionalInt> window) {
        Clock clock = clocks.wall();
        ObjectMapper mapper = new ObjectMapper();
        Commands commands = commands(config, clock, tools);
        SafetyMonitor monitor = monitor(config, store, events, tools.secrets());
        tools.llmTasks().checkBudgetWith(monitor::beforeDelegatedCall);
        TickWriter writer = writer(config, store, tools, monitor, mapper, commands.registry());
        // the commands' results go through what measures progress by the world, then to the monitor
        WorldProgress world = new WorldProgress(monitor);
        CommandExecutor executor = new CommandExecutor(store, commands.registry(), mapper,
                gate(commands, store, tools, monitor, instead, config.mcp()), tools.approver(), world, tools.completions());
        executor.onStartedDuringHalt(id -> tools.processes().stop(id));
        // the reflex may have another registry entry think for a while ("switch LLM"), then this one again
        SwitchableLlm thinking = LlmChain.reflexSwitch(llm);
        ContextSettings settings = Prompting.contextSettings(config);
        ContextAssembler assembler = Prompting.assembler(settings, store, commands.registry(), thinking,
                LlmChain.anyTools(config.llm()), LlmChain.anyJson(config.llm()), tools.mcp());
        if (instructions != null) assembler.standingInstructions(instructions);
        assembler.compactWhen(Prompting.compact(config.context().promptForm(), window, events));
        assembler.tellPersonWith(line -> events.emit(new AgentEvent.Info(line)));
        LiveSettings.Generation generation = new LiveSettings.Generation(config.llm().temperature(),
                config.llm().presencePenalty(), config.llm().frequencyPenalty(), false);
        LiveSettings live = new LiveSettings(settings, commands.bounds(), store.tables().settings(),
                java.util.Set.of(), generation, store.tables().reflex());
        // the reflex's random choices (a creative frame, a random command) come from the same injected source as jitter
        java.util.function.IntUnaryOperator random = bound -> Math.min(bound - 1,
                (int) (tools.jitter().getAsDouble() * bound));
        RegistrySwitch models = new RegistrySwitch(new RegistryRoutes(store.tables().llmRegistry(), tools.variables(),
                config.llm()), config.llm().model(), thinking);
        return new Cycle(clock, clocks.time(), thinking, new LlmParams(config.llm().temperature(), config.llm().maxTokens()),
                live, assembler, new CommandBlockParser(mapper),
                review(config, store, clock, LlmChain.comparisonClient(config, llm), generation, random,
                        commands.registry()::types, modelSwitch(models), monitor, world),
                new Backoff(FIRST_RETRY, config.llm().maxBackoff(), tools.jitter()), writer, executor, events,
                config.cycle().maxIdle(), breakers(monitor, config.llm(), tools.mcp()));
    }
}
