package dev.hmpagent.runtime;

import dev.hmpagent.text.Json;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.commands.CommandBlockParser;
import dev.hmpagent.commands.CommandExecutor;
import dev.hmpagent.commands.CommandGate;
import dev.hmpagent.commands.CommandQueue;
import dev.hmpagent.commands.CommandRegistry;
import dev.hmpagent.commands.FormatSlips;
import dev.hmpagent.commands.PolicyGate;
import dev.hmpagent.commands.MonitorGate;
import dev.hmpagent.commands.ReplySecrets;
import dev.hmpagent.commands.catalogue.Catalogue;
import dev.hmpagent.commands.catalogue.CommandOptions;
import dev.hmpagent.commands.catalogue.CatalogueTools;
import dev.hmpagent.commands.catalogue.ShellCommands;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.LlmSection;
import dev.hmpagent.config.McpSection;
import dev.hmpagent.config.StagnationSection;
import dev.hmpagent.context.ContextAssembler;
import dev.hmpagent.context.ContextSettings;
import dev.hmpagent.context.LiveSettings;
import dev.hmpagent.context.SettingsBounds;
import dev.hmpagent.context.StandingInstructions;
import dev.hmpagent.cycle.AfterWrite;
import dev.hmpagent.cycle.CallRows;
import dev.hmpagent.cycle.CommandStep;
import dev.hmpagent.cycle.Cycle;
import dev.hmpagent.cycle.CycleStatus;
import dev.hmpagent.cycle.LateJudge;
import dev.hmpagent.cycle.LlmBreakers;
import dev.hmpagent.cycle.LlmParams;
import dev.hmpagent.cycle.MainCall;
import dev.hmpagent.cycle.ReflexIdle;
import dev.hmpagent.cycle.ReplyRead;
import dev.hmpagent.cycle.ReplyReview;
import dev.hmpagent.cycle.ReplyWrite;
import dev.hmpagent.cycle.Rest;
import dev.hmpagent.cycle.Retries;
import dev.hmpagent.cycle.StatusCell;
import dev.hmpagent.cycle.Telling;
import dev.hmpagent.cycle.TickWriter;
import dev.hmpagent.cycle.TimeSource;
import dev.hmpagent.cycle.TurnEnd;
import dev.hmpagent.cycle.WakeRule;
import dev.hmpagent.cycle.WorldProgress;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.llm.Backoff;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.MeteredLlm;
import dev.hmpagent.llm.RegistrySwitch;
import dev.hmpagent.llm.SwitchableLlm;
import dev.hmpagent.mcp.McpGate;
import dev.hmpagent.a2a.client.A2aGate;
import dev.hmpagent.mcp.McpServers;
import dev.hmpagent.process.WriteQuota;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.SafetyMonitor;
import dev.hmpagent.safety.StopSignal;
import dev.hmpagent.stagnation.HybridComparator;
import dev.hmpagent.stagnation.LlmComparator;
import dev.hmpagent.stagnation.LocalComparator;
import dev.hmpagent.stagnation.ModelSwitch;
import dev.hmpagent.stagnation.ReflexSettings;
import dev.hmpagent.stagnation.ReplyComparator;
import dev.hmpagent.stagnation.SignSettings;
import dev.hmpagent.stagnation.StagnationReflex;
import dev.hmpagent.store.LlmCall;
import dev.hmpagent.store.ScriptsDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.Tables;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * The cycle's half of the composition root: its command families and gate, its one {@link StopSignal} with all a halt
 * stops registered on it, and every part of the {@link Cycle}, each made once here on the tick thread's connection.
 */
final class CycleWiring {
    private CycleWiring() { }

    /** The wall clock (what is shown and stored) and the monotonic one (what every wait is measured on). */
    private record Clocks(Clock wall, TimeSource time) { }

    /** What the cycle's parts share: the stop signal, the writer, the breakers, the secrets, the slips, the executor. */
    private record Core(StopSignal stops, TickWriter writer, LlmBreakers breakers, ReplySecrets secrets,
                        FormatSlips slips, CommandExecutor executor) { }

    /**
     * The cycle on {@code store}, acting through {@code tools}; {@code instead} (a test's gate) replaces the policy when
     * given, {@code instructions} (AGENTS.md) join context 0 when given.
     */
    static Cycle build(AgentConfig config, Store store, LlmClient llm, EventSink events, Clock clock, TimeSource time,
                       Wiring.Tools tools, CommandGate instead, StandingInstructions instructions,
                       Supplier<OptionalInt> window) {
        Clocks clocks = new Clocks(clock, time);
        ObjectMapper mapper = Json.mapper();
        Commands commands = commands(config, clock, tools);
        SafetyMonitor monitor = Wiring.monitor(config, store, events, tools);
        tools.llmTasks().checkBudgetWith(monitor::beforeDelegatedCall);
        // the commands' results go through what measures progress by the world, then to the monitor
        WorldProgress world = new WorldProgress(monitor);
        Core core = core(config, store, tools, monitor, mapper, commands, world, instead);
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
        ReplyReview review = review(config, store, clock, LlmChain.comparisonClient(config, llm), generation, random,
                commands.registry()::types, modelSwitch(models), monitor, world);
        Cycle cycle = new Cycle(parts(config, store, events, clocks, core, thinking, live, assembler, review, mapper,
                tools));
        // everything a halt stops, at once, on the thread that heard it: the main and judge calls, then every process
        // tree, delegated LLM call and MCP call
        core.stops().onHalt(cycle::stopCalls);
        core.stops().onHalt(() -> tools.stopAll(Wiring.HALTED));
        // a halt of the parent halts its children, each in its own file, as `agent halt` would
        core.stops().onHalt(() -> tools.children().haltAll("the parent was halted", clock));
        return cycle;
    }

    /** The agent's one stop signal, the tick writer and the executor, over the tick thread's connection. */
    private static Core core(AgentConfig config, Store store, Wiring.Tools tools, SafetyMonitor monitor,
                             ObjectMapper mapper, Commands commands, WorldProgress world, CommandGate instead) {
        // a halt heard by the control watcher, and the persisted state (with the halt flag beside the file)
        StopSignal stops = StopSignal.over(store);
        ReplySecrets secrets = new ReplySecrets(tools.secrets().values());
        store.scrubResultsWith(secrets::redactResult);
        FormatSlips slips = new FormatSlips(commands.registry(), store.tables().settings());
        LlmBreakers breakers = breakers(monitor, config.llm(), tools.mcp());
        TickWriter writer = new TickWriter(store, new CommandQueue(mapper, config.cycle().maxCommandsPerReply(), secrets,
                commands.registry()), monitor, breakers, slips, stops);
        CommandExecutor executor = new CommandExecutor(store, commands.registry(), mapper,
                gate(commands, store, tools, monitor, instead, config), tools.approver(), world, tools.completions());
        executor.onStartedDuringHalt(id -> tools.processes().stop(id));
        return new Core(stops, writer, breakers, secrets, slips, executor);
    }

    /** Each part of the cycle, made once; they share the status cell, the wake rule and the retries. */
    private static Cycle.Parts parts(AgentConfig config, Store store, EventSink events, Clocks clocks, Core core,
                                     SwitchableLlm thinking, LiveSettings live, ContextAssembler assembler,
                                     ReplyReview review, ObjectMapper mapper, Wiring.Tools tools) {
        Clock clock = clocks.wall();
        Tables tables = store.tables();
        StatusCell status = new StatusCell(CycleStatus.initial(tables.agentLog().lastTickId(),
                tables.agentLog().totalTokens()));
        WakeRule wake = new WakeRule(clock, clocks.time(), live, tables.notes(), tables.processLog(), tables.settings(),
                review::slowDown, config.cycle().maxIdle(), events, core.breakers());
        Retries retries = new Retries(clock, clocks.time(), new Backoff(Wiring.FIRST_RETRY, config.llm().maxBackoff(),
                tools.jitter()), status, core.writer(), events, core.breakers());
        Telling telling = new Telling(events, tables.processLog(), core.secrets(), core.slips());
        return new Cycle.Parts(clock, core.stops(), status, wake,
                new MainCall(thinking, new LlmParams(config.llm().temperature(), config.llm().maxTokens()), clock,
                        events, status),
                retries, assembler, new ReplyRead(new CommandBlockParser(mapper), core.secrets()), review,
                new ReplyWrite(core.writer(), retries, events),
                new CommandStep(core.executor(), status, retries, telling, new TurnEnd(tables.processLog(), core.slips())),
                telling, new LateJudge(review, core.writer(), status, events),
                new AfterWrite(clock, status, wake, retries, review, events),
                new Rest(new SafetyControl(store), clock, clocks.time(), wake), core.writer(), core.breakers());
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
                clock, random, commandTypes, models, new ReflexIdle(monitor),
                new MeshPeers(store, new A2aGate(config.a2a(), store.tables().peers())));
        return new ReplyReview(comparator, local, new CommandBlockParser(Json.mapper()), reflex,
                store.tables().responses(), store.tables().stagnation(),
                s.repeatWindow(), new ReplyReview.ChantLimits(s.chantMinPeriod(), s.chantRepeats()), metered::take,
                world);
    }

    /** The command families the LLM may use, with the bounds of the settings it may change. */
    private record Commands(CommandRegistry registry, ShellCommands shell, SettingsBounds bounds) { }

    private static Commands commands(AgentConfig config, Clock clock, Wiring.Tools tools) {
        int k = config.cycle().historyK();
        SettingsBounds bounds = new SettingsBounds(Math.min(SettingsBounds.DEFAULTS.historyKMin(), Math.max(k, 0)),
                Math.max(SettingsBounds.DEFAULTS.historyKMax(), k));
        CatalogueTools.Limits limits = new CatalogueTools.Limits(new ShellCommands.Limits(config.shell().timeout(),
                config.shell().maxTimeout(), config.cleanup().minAgeTicks(), Wiring.scriptsDir(config)),
                config.files().maxReadBytes(), config.files().maxWriteBytes(), config.cycle().maxIdle());
        Catalogue.Families families = Catalogue.all(new CommandOptions(config.cleanup().minAgeTicks(), bounds),
                new CatalogueTools(tools.processes(), tools.roots(), tools.confinement().forModel(),
                        new WriteQuota(tools.roots().roots(), config.sandbox().taskMaxBytes(),
                                config.sandbox().taskMaxFiles()), clock, limits, tools.mcp(),
                        List.of(tools.llmTasks(), tools.children().command()), tools.peers()));
        return new Commands(families.registry(), families.processes(), bounds);
    }

    /** {@code instead} when given (a test's), else the policy; then the sandbox's refusals and the monitor. */
    private static CommandGate gate(Commands commands, Store store, Wiring.Tools tools, SafetyMonitor monitor,
                                    CommandGate instead, AgentConfig config) {
        ScriptsDao scripts = store.tables().scripts();
        CommandGate first = instead != null ? instead : new PolicyGate(commands.registry(), tools.shell(), tools.roots(),
                c -> commands.shell().scriptLaunch(scripts, c))
                .and(new McpGate(config.mcp())).and(new A2aGate(config.a2a(), store.tables().peers()));
        return first.and(Wiring.processesRefused(tools.confinement())).and(new MonitorGate(monitor));
    }
}
