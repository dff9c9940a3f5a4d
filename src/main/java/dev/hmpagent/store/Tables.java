package dev.hmpagent.store;

import java.util.Objects;

/**
 * The DAOs of one {@link Store}, built once when the connection is opened ({@link Store#tables()}) and shared
 * by everything that uses that connection. A DAO holds nothing but its store, so one of each is enough; like
 * the Store, they belong to one thread at a time.
 */
public final class Tables {
    private final AgentLogDao agentLog;
    private final AgentTablesDao agentTables;
    private final ConceptsDao concepts;
    private final ControlRequestsDao controlRequests;
    private final DiaryDao diary;
    private final ExternalServicesDao externalServices;
    private final GoalsDao goals;
    private final IdentityDao identity;
    private final LlmCallsDao llmCalls;
    private final LlmRegistryDao llmRegistry;
    private final MemoryDao memory;
    private final NotesDao notes;
    private final PeersDao peers;
    private final A2aTasksDao a2aTasks;
    private final ProcessLogDao processLog;
    private final PromptsDao prompts;
    private final RatingsDao ratings;
    private final ReflexDao reflex;
    private final ResponsesDao responses;
    private final SafetyCountersDao safetyCounters;
    private final SafetyDao safety;
    private final ScriptsDao scripts;
    private final SettingsDao settings;
    private final StagnationDao stagnation;
    private final UsersDao users;

    Tables(Store store) {
        Objects.requireNonNull(store, "store");
        this.agentLog = new AgentLogDao(store);
        this.agentTables = new AgentTablesDao(store);
        this.concepts = new ConceptsDao(store);
        this.controlRequests = new ControlRequestsDao(store);
        this.diary = new DiaryDao(store);
        this.externalServices = new ExternalServicesDao(store);
        this.goals = new GoalsDao(store);
        this.identity = new IdentityDao(store);
        this.llmCalls = new LlmCallsDao(store);
        this.llmRegistry = new LlmRegistryDao(store);
        this.memory = new MemoryDao(store);
        this.notes = new NotesDao(store);
        this.peers = new PeersDao(store);
        this.a2aTasks = new A2aTasksDao(store);
        this.processLog = new ProcessLogDao(store);
        this.prompts = new PromptsDao(store);
        this.ratings = new RatingsDao(store);
        this.reflex = new ReflexDao(store);
        this.responses = new ResponsesDao(store);
        this.safetyCounters = new SafetyCountersDao(store);
        this.safety = new SafetyDao(store);
        this.scripts = new ScriptsDao(store);
        this.settings = new SettingsDao(store);
        this.stagnation = new StagnationDao(store);
        this.users = new UsersDao(store);
    }

    public AgentLogDao agentLog() { return agentLog; }

    public AgentTablesDao agentTables() { return agentTables; }

    public ConceptsDao concepts() { return concepts; }

    public ControlRequestsDao controlRequests() { return controlRequests; }

    public DiaryDao diary() { return diary; }

    public ExternalServicesDao externalServices() { return externalServices; }

    public GoalsDao goals() { return goals; }

    public IdentityDao identity() { return identity; }

    public LlmCallsDao llmCalls() { return llmCalls; }

    public LlmRegistryDao llmRegistry() { return llmRegistry; }

    public MemoryDao memory() { return memory; }

    public NotesDao notes() { return notes; }

    public PeersDao peers() { return peers; }

    public A2aTasksDao a2aTasks() { return a2aTasks; }

    public ProcessLogDao processLog() { return processLog; }

    public PromptsDao prompts() { return prompts; }

    public RatingsDao ratings() { return ratings; }

    public ReflexDao reflex() { return reflex; }

    public ResponsesDao responses() { return responses; }

    public SafetyCountersDao safetyCounters() { return safetyCounters; }

    public SafetyDao safety() { return safety; }

    public ScriptsDao scripts() { return scripts; }

    public SettingsDao settings() { return settings; }

    public StagnationDao stagnation() { return stagnation; }

    public UsersDao users() { return users; }
}
