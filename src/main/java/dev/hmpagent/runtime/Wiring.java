package dev.hmpagent.runtime;

import dev.hmpagent.llm.SwitchableLlm;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.commands.CommandBlockParser;
import dev.hmpagent.commands.CommandRegistry;
import dev.hmpagent.commands.Approver;
import dev.hmpagent.commands.CommandExecutor;
import dev.hmpagent.commands.CommandGate;
import dev.hmpagent.commands.CommandOptions;
import dev.hmpagent.commands.CommandQueue;
import dev.hmpagent.commands.ReplySecrets;
import dev.hmpagent.commands.Completions;
import dev.hmpagent.commands.catalogue.FileCommands;
import dev.hmpagent.commands.MonitorGate;
import dev.hmpagent.config.SafetySection;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.safety.AlertCommand;
import dev.hmpagent.safety.Guides;
import dev.hmpagent.safety.SafetyMonitor;
import dev.hmpagent.safety.SafetyRules;
import dev.hmpagent.commands.catalogue.IdleCommands;
import dev.hmpagent.commands.PolicyGate;
import dev.hmpagent.commands.catalogue.ShellCommands;
import dev.hmpagent.policy.ControlSurface;
import dev.hmpagent.policy.FileRoots;
import dev.hmpagent.policy.ShellPolicy;
import dev.hmpagent.policy.ShellRules;
import dev.hmpagent.process.Confinement;
import dev.hmpagent.process.ProcessRunner;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.LlmSection;
import dev.hmpagent.config.NotesMode;
import dev.hmpagent.context.ContextAssembler;
import dev.hmpagent.context.ContextSettings;
import dev.hmpagent.context.ContextSources;
import dev.hmpagent.context.LiveSettings;
import dev.hmpagent.context.SettingsBounds;
import dev.hmpagent.cycle.Cycle;
import dev.hmpagent.cycle.LlmBreakers;
import dev.hmpagent.cycle.LlmParams;
import dev.hmpagent.cycle.LlmTasks;
import dev.hmpagent.cycle.MeteredLlm;
import dev.hmpagent.cycle.TickWriter;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.llm.Backoff;
import dev.hmpagent.llm.FailoverLlm;
import dev.hmpagent.config.RegistryEntry;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.openai.OpenAiClient;
import dev.hmpagent.llm.openai.OpenAiSettings;
import dev.hmpagent.llm.anthropic.AnthropicClient;
import dev.hmpagent.llm.anthropic.AnthropicSettings;
import dev.hmpagent.llm.ollama.OllamaClient;
import dev.hmpagent.llm.ollama.OllamaSettings;
import dev.hmpagent.safety.OutcomeListener;
import dev.hmpagent.config.StagnationSection;
import dev.hmpagent.cycle.ReplyReview;
import dev.hmpagent.cycle.StagnationReflex;
import dev.hmpagent.stagnation.HybridComparator;
import dev.hmpagent.stagnation.LlmComparator;
import dev.hmpagent.stagnation.LocalComparator;
import dev.hmpagent.stagnation.ReplyComparator;
import dev.hmpagent.stagnation.SignSettings;
import dev.hmpagent.store.ConceptsDao;
import dev.hmpagent.store.DiaryDao;
import dev.hmpagent.store.MemoryDao;
import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ResponsesDao;
import dev.hmpagent.store.AgentCatalogue;
import dev.hmpagent.store.LlmRegistryDao;
import dev.hmpagent.store.LlmCall;
import dev.hmpagent.config.Secrets;
import dev.hmpagent.store.ScriptsDao;
import dev.hmpagent.store.SettingsDao;
import dev.hmpagent.store.Store;
import java.time.Clock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/** The object graph of one agent, built by constructors from a validated config. Tests build through it too. */
public final class Wiring {
    static final Duration FIRST_RETRY = Duration.ofSeconds(1);

    private Wiring() { }

    /** The client of {@code llm}'s provider, with its base URL, key, model, streaming, timeouts and options. */
    public static LlmClient llmClient(LlmSection llm) {
        return switch (llm.provider()) {
            case OPENAI -> new OpenAiClient(new OpenAiSettings(llm.baseUrl(), llm.apiKey(), llm.model(), llm.stream(),
                    llm.connectTimeout(), llm.readTimeout(), llm.callDeadline()));
            case OLLAMA -> new OllamaClient(new OllamaSettings(llm.baseUrl(), llm.model(), llm.stream(),
                    llm.connectTimeout(), llm.readTimeout(), llm.callDeadline(), llm.options(), "", llm.apiKey()));
            case ANTHROPIC -> new AnthropicClient(new AnthropicSettings(llm.baseUrl(), llm.apiKey(), llm.model(),
                    llm.stream(), llm.connectTimeout(), llm.readTimeout(), llm.callDeadline()));
        };
    }

    /**
     * What the agent acts on the world with, built once per runtime: the process runner (close it with
     * {@code processes().stopAll}), the file roots, the shell policy, who answers its questions, and where
     * external results arrive.
     */
    public record Tools(ProcessRunner processes, FileRoots roots, ShellPolicy shell, Approver approver,
                        Completions completions, LlmTasks llmTasks, java.util.function.DoubleSupplier jitter,
                        java.util.function.Function<String, String> variables, Confinement confinement) {
        /** A halt: every process tree is killed and every delegated LLM call cancelled. */
        public void stopAll(String why) {
            llmTasks.cancelAll();
            processes.stopAll(why);
        }
    }

    /**
     * The tools for {@code config}: the control surface (the database and its side files, the config files in
     * {@code protectedFiles}) is denied whatever the rules say; processes get {@code env} scrubbed of secrets.
     */
    public static Tools tools(AgentConfig config, Approver approver, List<Path> protectedFiles, Map<String, String> env,
                              Clock clock, Supplier<LlmClient> taskLlms) {
        ControlSurface surface = controlSurface(config, protectedFiles);
        FileRoots roots = FileRoots.forDatabase(config.files().roots(), config.agent().db(), surface);
        // the operating system confines what the LLM runs where it can; the text policy is the first filter
        Confinement confinement = Confinements.choose(config.sandbox(), roots.roots(), surface, env);
        ShellRules rules = new ShellRules(config.policy().shellDeny(), config.policy().shellAsk(),
                config.policy().shellAllow());
        // without the sandbox the text policy is all there is: its stricter fallback rules
        ShellPolicy shell = confinement.sandboxed() ? new ShellPolicy(rules, surface, approver.personPresent())
                : ShellPolicy.unconfined(rules, Confinements.defaultAllow(), surface, approver.personPresent(),
                roots.roots());
        ProcessRunner processes = new ProcessRunner(config.shell().maxProcesses(), config.shell().outputCapBytes(), clock,
                env, confinement.launcher());
        LlmTasks tasks = new LlmTasks(taskLlms, new LlmParams(config.llm().temperature(), config.llm().maxTokens()), clock);
        Map<String, String> environment = Map.copyOf(env);
        // a lookup, not the map: a registry entry's key is read by its variable's name, and never printed with the tools
        return new Tools(processes, roots, shell, approver, new Completions(), tasks, () -> 0.0, environment::get,
                confinement);
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
    static SafetyMonitor monitor(AgentConfig config, Store store, EventSink events) {
        SafetySection c = config.safety();
        AlertCommand alert = new AlertCommand(c.alertCommand());
        return new SafetyMonitor(store, new SafetyMonitor.Limits(c.tokenBudget(), c.tickCap(), new SafetyRules.Limits(
                c.repeatAlertAt(), c.repeatLockAt(), c.cascadeWindow(), c.cascadeFailures(),
                SafetyRules.Limits.DEFAULTS.anomalyAlertAt(), c.loopAlertAt(), c.loopLockAt()), c.dailyTokenBudget()),
                Guides.byName(c.guide()),
                reason -> {
                    if (alert.configured()) alert.run(reason);
                },
                line -> events.emit(new AgentEvent.Problem(line)));
    }

    private static LlmBreakers breakers(SafetyMonitor monitor, LlmSection llm) {
        return new LlmBreakers() {
            @Override
            public boolean beforeLlmCall() { return monitor.beforeLlmCall(); }

            @Override
            public void afterLlmCall(long tokens, boolean countsAsTick) { monitor.afterLlmCall(tokens, countsAsTick); }

            @Override
            public void newTask(long noteId) { monitor.newTask(noteId); }

            @Override
            public void newInput() { monitor.newInput(); }

            @Override
            public void quotaExhausted(String reason) { monitor.quotaExhausted(reason, llmLines(llm)); }

            @Override
            public boolean feelUnlockRefusals(long tickId) { return monitor.feelUnlockRefusals(tickId); }

            @Override
            public void afterTick() { monitor.flush(); }
        };
    }

    private static List<String> scriptArgs(dev.hmpagent.commands.PendingCommand c) {
        List<String> out = new java.util.ArrayList<>();
        com.fasterxml.jackson.databind.JsonNode a = c.args().path("args");
        if (a.isArray()) a.forEach(n -> out.add(n.asText()));
        else if (a.isValueNode() && !a.isNull()) out.add(a.asText());
        return out;
    }

    /** The same tools with retries jittered by {@code random} (a running agent's: a random source). */
    public static Tools withJitter(Tools tools, java.util.function.DoubleSupplier random) {
        return new Tools(tools.processes(), tools.roots(), tools.shell(), tools.approver(), tools.completions(),
                tools.llmTasks(), random, tools.variables(), tools.confinement());
    }

    /**
     * The client step 5's comparison asks: the main one when {@code stagnation.model} is empty (or names the main
     * model), else one for that model on the same endpoint with the same key (a key never goes to another host).
     */
    static LlmClient comparisonClient(AgentConfig config, LlmClient main) {
        StagnationSection s = config.stagnation();
        if (s.model().isBlank() || s.model().equals(config.llm().model())) return main;
        LlmSection llm = config.llm();
        return llmClient(llm.forRoute(llm.provider(), llm.baseUrl(), s.model(), llm.apiKey(), llm.options()));
    }

    /** Step 5 as [stagnation] configures it: the comparator of its method, the signs, the reflex, the chant limits. */
    static ReplyReview review(AgentConfig config, Store store, Clock clock, LlmClient comparisonLlm,
                              LiveSettings.Generation generation, java.util.function.IntUnaryOperator random,
                              Supplier<List<String>> commandTypes, StagnationReflex.ModelSwitch models) {
        StagnationSection s = config.stagnation();
        LocalComparator local = new LocalComparator(s.noveltyThreshold());
        // each comparison call is noted, and written with its tick
        MeteredLlm metered = new MeteredLlm(comparisonLlm, clock, LlmCall.Purpose.COMPARISON);
        ReplyComparator comparator = switch (s.method()) {
            case LOCAL -> local;
            case LLM -> new LlmComparator(metered, s.maxTokens(), s.noveltyThreshold(), local);
            case HYBRID -> new HybridComparator(local, new LlmComparator(metered, s.maxTokens(),
                    s.noveltyThreshold(), local), s.nearIdentical(), s.ambiguousHigh());
        };
        SignSettings signs = new SignSettings(s.noveltyThreshold(), s.lowNoveltyTicks(), s.repeatWindow() > 0,
                s.noGrowthTicks(), s.noStimulusTicks(), SignSettings.DEFAULTS.overheatTicks());
        StagnationReflex reflex = new StagnationReflex(store, new StagnationReflex.Settings(signs, s.reflex(),
                s.ratingTicks(), s.maxQuestions(), s.sleep(), s.taskSwitch(), generation, config.cycle().historyK()),
                clock, random, commandTypes, models);
        return new ReplyReview(comparator, local, new CommandBlockParser(new ObjectMapper()), reflex,
                new ResponsesDao(store), new dev.hmpagent.store.StagnationDao(store),
                s.repeatWindow(), new ReplyReview.ChantLimits(s.chantMinPeriod(), s.chantRepeats()), metered::take);
    }

    /**
     * llm_registry as the configuration says at this start: the main LLM (id main, priority 0) and the llm.registry
     * entries; rows of entries no longer configured go. Each row names its key's variable, never the key.
     */
    static void registerLlms(Store store, LlmSection llm) {
        LlmRegistryDao registry = new LlmRegistryDao(store);
        store.inTransaction(() -> {
            registry.register(LlmRegistryDao.MAIN_ID, llm.model(), "the LLM agent.toml configures",
                    llm.provider().configName(), Secrets.redactUrl(llm.baseUrl()), llm.model(), 0, llm.keyVariable());
            List<String> ids = new java.util.ArrayList<>(List.of(LlmRegistryDao.MAIN_ID));
            for (RegistryEntry e : llm.registry()) {
                registry.register(e.id(), e.id(), e.description().isEmpty() ? "llm.registry in agent.toml" : e.description(),
                        e.provider().configName(), e.baseUrl(), e.model(), e.priority(), e.apiKeyEnv());
                registry.markConfigured(e.id());
                ids.add(e.id());
            }
            registry.retainConfigured(ids);
        });
    }

    /**
     * The LLMs the configuration names, one "provider model at base URL" per line (no key, credentials masked): what a
     * quota stop remembers, and what a start compares with it.
     */
    static String llmLines(LlmSection llm) {
        StringBuilder out = new StringBuilder(llm.provider().configName() + " " + llm.model() + " at "
                + Secrets.redactUrl(llm.baseUrl()));
        llm.registry().forEach(e -> out.append('\n').append(e.provider().configName()).append(' ').append(e.model())
                .append(" at ").append(Secrets.redactUrl(e.baseUrl())));
        return out.toString();
    }

    /**
     * At start: a quota stop is released when the configuration names other LLMs than the ones whose quota ran out,
     * and the agent says so; with the same LLMs it stays, and says what releases it.
     */
    static void releaseQuotaStop(Store store, LlmSection llm, EventSink events) {
        dev.hmpagent.safety.SafetyControl.Outcome o = new dev.hmpagent.safety.SafetyControl(store)
                .releaseQuotaIfConfigChanged(llmLines(llm), dev.hmpagent.store.Requester.thisProcess());
        if (o.result() == dev.hmpagent.safety.SafetyControl.Result.MOVED) {
            events.emit(new AgentEvent.Info("the quota stop is released: the agent starts with other LLMs than the"
                    + " ones whose quota ran out"));
        } else if (o.result() == dev.hmpagent.safety.SafetyControl.Result.REFUSED) {
            events.emit(new AgentEvent.Problem("the agent is stopped (quota) since " + o.before().since() + ": "
                    + o.before().detail() + " — point llm.* at another provider or model (or add an llm.registry"
                    + " entry) and start it again"));
        }
    }

    /** The first probe of a given-up LLM comes this long after it was given up; later ones back off to 5 minutes. */
    static final Duration FIRST_PROBE = Duration.ofSeconds(15);

    /**
     * The LLM the cycle thinks with: the configured one, failing over to the llm.registry entries by priority (and
     * file order) when it is unreachable, each entry a client of its own with the key of the variable it names.
     */
    public static FailoverLlm thinkingLlm(LlmSection llm, Launch.LlmFactory factory,
                                          java.util.function.Function<String, String> variables, Clock clock) {
        List<FailoverLlm.Route> routes = new java.util.ArrayList<>();
        routes.add(new FailoverLlm.Route(LlmRegistryDao.MAIN_ID, factory.create(llm)));
        llm.registry().stream().sorted(java.util.Comparator.comparingInt(RegistryEntry::priority))
                .forEach(e -> routes.add(new FailoverLlm.Route(e.id(), factory.create(entrySection(llm, e, variables)))));
        return new FailoverLlm(routes, llm.failoverAfter()::reached, new Backoff(FIRST_PROBE, Duration.ofMinutes(5)),
                clock).retargeting((request, was, now) -> new LlmRequest(ContextAssembler.retargeted(request.messages(),
                        ContextAssembler.describeLlm(was.model(), was.endpoint()),
                        ContextAssembler.describeLlm(now.model(), now.endpoint())), request.temperature(),
                        request.maxTokens(), request.presencePenalty(), request.frequencyPenalty()));
    }

    /** The section of registry entry {@code e}: its own route, and the key of the variable it names ("" when none). */
    static LlmSection entrySection(LlmSection main, RegistryEntry e, java.util.function.Function<String, String> variables) {
        String key = e.apiKeyEnv().isBlank() ? "" : variables.apply(e.apiKeyEnv());
        return main.forRoute(e.provider(), e.baseUrl(), e.model(), key, e.options());
    }

    /** The keys this agent sends (the main LLM's, each llm.registry entry's): never stored with a reply. */
    static List<String> knownKeys(LlmSection llm, java.util.function.Function<String, String> variables) {
        List<String> keys = new java.util.ArrayList<>(List.of(llm.apiKey()));
        llm.registry().forEach(e -> keys.add(e.apiKeyEnv().isBlank() ? ""
                : java.util.Objects.toString(variables.apply(e.apiKeyEnv()), "")));
        return keys;
    }

    /** The cycle on {@code store} (the tick thread's connection) with the configured policy and nobody to ask. */
    public static Cycle cycle(AgentConfig config, Store store, LlmClient llm, EventSink events, Clock clock) {
        return cycle(config, store, llm, events, clock, tools(config, Approver.NOBODY, List.of(), System.getenv(), clock,
                () -> llmClient(config.llm())));
    }

    /** The cycle on {@code store}, its commands checked by {@code gate} (instead of the policy) and {@code approver}. */
    public static Cycle cycle(AgentConfig config, Store store, LlmClient llm, EventSink events, Clock clock,
                              CommandGate gate, Approver approver) {
        return cycle(config, store, llm, events, clock, tools(config, approver, List.of(), System.getenv(), clock,
                () -> llmClient(config.llm())), Optional.of(gate));
    }

    /** The cycle on {@code store} (the tick thread's connection), acting through {@code tools} under their policy. */
    public static Cycle cycle(AgentConfig config, Store store, LlmClient llm, EventSink events, Clock clock, Tools tools) {
        return cycle(config, store, llm, events, clock, tools, Optional.empty());
    }

    private static Cycle cycle(AgentConfig config, Store store, LlmClient llm, EventSink events, Clock clock, Tools tools,
                               Optional<CommandGate> gateInstead) {
        ObjectMapper mapper = new ObjectMapper();
        int k = config.cycle().historyK();
        SettingsBounds bounds = new SettingsBounds(Math.min(SettingsBounds.DEFAULTS.historyKMin(), Math.max(k, 0)),
                Math.max(SettingsBounds.DEFAULTS.historyKMax(), k));
        ShellCommands shell = new ShellCommands(tools.processes(), tools.roots(), new ShellCommands.Limits(
                config.shell().timeout(), config.shell().maxTimeout(), config.cleanup().minAgeTicks(),
                scriptsDir(config)), clock, tools.confinement().forModel());
        CommandRegistry registry = CommandRegistry.builtIn(new CommandOptions(config.cleanup().minAgeTicks(), bounds))
                .register("processes", shell.all())
                .register("files", new FileCommands(tools.roots(), config.files().maxReadBytes(),
                        config.files().maxWriteBytes()).all())
                .register("cycle settings", new IdleCommands(tools.roots(), config.cycle().maxIdle()).all())
                .register("delegation", List.of(tools.llmTasks()));
        ScriptsDao scripts = new ScriptsDao(store);
        SafetyMonitor monitor = monitor(config, store, events);
        tools.llmTasks().checkBudgetWith(monitor::beforeDelegatedCall);
        CommandGate gate = gateInstead.orElseGet(() -> new PolicyGate(registry, tools.shell(), tools.roots(),
                c -> shell.scriptLaunch(scripts, c.args().path("name").asText(""), scriptArgs(c))))
                .and(processesRefused(tools.confinement()))
                .and(new MonitorGate(monitor));
        ReplySecrets secrets = new ReplySecrets(knownKeys(config.llm(), tools.variables()));
        store.scrubResultsWith(secrets::redactKnown);
        TickWriter writer = new TickWriter(store, new CommandQueue(mapper, config.cycle().maxCommandsPerReply(),
                secrets), monitor, breakers(monitor, config.llm()));
        CommandExecutor executor = new CommandExecutor(store, registry, mapper, gate, tools.approver(),
                monitor, tools.completions());
        executor.onStartedDuringHalt(id -> tools.processes().stop(id));
        ContextSettings settings = new ContextSettings(config.agent().name(), k,
                config.context().promptBudgetTokens(), config.context().notesMode() == NotesMode.MANUAL,
                config.context().notesLimit(), new NoteFilter(config.context().notesMinPriority(),
                NoteFilter.tagList(config.context().notesTags())), config.cycle().autonomous());
        // the reflex may have another registry entry think for a while ("switch LLM"), then this one again
        SwitchableLlm thinking = new SwitchableLlm(llm);
        // context 5 names the LLM thinking now, after a switch too
        ContextAssembler assembler = new ContextAssembler(settings, registry.catalog(),
                () -> ContextAssembler.describeLlm(thinking.model(), thinking.endpoint()), ContextSources.of(store), ContextAssembler.DEFAULT_PIN_CAP,
                ContextAssembler.DEFAULT_PER_SOURCE_CAP, ContextAssembler.secureNonces());
        registerLlms(store, config.llm());
        releaseQuotaStop(store, config.llm(), events);
        AgentCatalogue own = new AgentCatalogue(store);
        assembler.listAgentCatalogue(own::catalogueLines);
        LiveSettings.Generation generation = new LiveSettings.Generation(config.llm().temperature(),
                config.llm().presencePenalty(), config.llm().frequencyPenalty(), false);
        LiveSettings live = new LiveSettings(settings, bounds, new SettingsDao(store), java.util.Set.of(), generation,
                new dev.hmpagent.store.ReflexDao(store));
        // the reflex's random choices (a creative frame, a random command) come from the same injected source as jitter
        java.util.function.IntUnaryOperator random = bound -> Math.min(bound - 1,
                (int) (tools.jitter().getAsDouble() * bound));
        return new Cycle(clock, thinking, new LlmParams(config.llm().temperature(), config.llm().maxTokens()),
                live, assembler, new CommandBlockParser(mapper),
                review(config, store, clock, comparisonClient(config, llm), generation, random,
                        registry::types, new RegistrySwitch(new LlmRegistryDao(store), tools.variables(), config.llm(),
                                thinking)),
                new Backoff(FIRST_RETRY, config.llm().maxBackoff(), tools.jitter()), writer, executor, events,
                config.cycle().maxIdle(),
                breakers(monitor, config.llm()));
    }
}
