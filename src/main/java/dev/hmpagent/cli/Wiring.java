package dev.hmpagent.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.commands.CommandBlockParser;
import dev.hmpagent.commands.CommandRegistry;
import dev.hmpagent.commands.Approver;
import dev.hmpagent.commands.CommandExecutor;
import dev.hmpagent.commands.CommandGate;
import dev.hmpagent.commands.CommandQueue;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.LlmSection;
import dev.hmpagent.config.NotesMode;
import dev.hmpagent.context.ContextAssembler;
import dev.hmpagent.context.ContextSettings;
import dev.hmpagent.cycle.Cycle;
import dev.hmpagent.cycle.LlmParams;
import dev.hmpagent.cycle.TickWriter;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.llm.Backoff;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.openai.OpenAiClient;
import dev.hmpagent.llm.openai.OpenAiSettings;
import dev.hmpagent.safety.OutcomeListener;
import dev.hmpagent.stagnation.NoveltyScorer;
import dev.hmpagent.store.ConceptsDao;
import dev.hmpagent.store.DiaryDao;
import dev.hmpagent.store.MemoryDao;
import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ResponsesDao;
import dev.hmpagent.store.SettingsDao;
import dev.hmpagent.store.Store;
import java.time.Clock;
import java.time.Duration;

/** The object graph of one agent, built by constructors from a validated config. Tests build through it too. */
public final class Wiring {
    static final Duration FIRST_RETRY = Duration.ofSeconds(1);

    private Wiring() { }

    public static LlmClient llmClient(LlmSection llm) {
        return new OpenAiClient(new OpenAiSettings(llm.baseUrl(), llm.apiKey(), llm.model(), llm.stream(),
                llm.connectTimeout(), llm.readTimeout(), llm.callDeadline()));
    }

    /** The cycle on {@code store} (the tick thread's connection), every command allowed, nobody to ask. */
    public static Cycle cycle(AgentConfig config, Store store, LlmClient llm, EventSink events, Clock clock) {
        return cycle(config, store, llm, events, clock, CommandGate.ALLOW_ALL, Approver.NOBODY);
    }

    /** The cycle on {@code store}, its commands checked by {@code gate} and, where it asks, by {@code approver}. */
    public static Cycle cycle(AgentConfig config, Store store, LlmClient llm, EventSink events, Clock clock,
                              CommandGate gate, Approver approver) {
        ObjectMapper mapper = new ObjectMapper();
        CommandRegistry registry = CommandRegistry.builtIn();
        TickWriter writer = new TickWriter(store, new CommandQueue(mapper), OutcomeListener.NONE);
        CommandExecutor executor = new CommandExecutor(store, registry, mapper, gate, approver, OutcomeListener.NONE);
        ContextSettings settings = new ContextSettings(config.agent().name(), config.cycle().historyK(),
                config.context().promptBudgetTokens(), config.context().notesMode() == NotesMode.MANUAL,
                config.context().notesLimit(), new NoteFilter(config.context().notesMinPriority(),
                NoteFilter.tagList(config.context().notesTags())), config.cycle().autonomous());
        ContextAssembler assembler = new ContextAssembler(settings, registry.catalog(),
                llm.model() + " at " + llm.endpoint(), new NotesDao(store), new ProcessLogDao(store),
                new ResponsesDao(store), new MemoryDao(store), new DiaryDao(store), new ConceptsDao(store),
                new SettingsDao(store), ContextAssembler.secureNonces());
        return new Cycle(clock, llm, new LlmParams(config.llm().temperature(), config.llm().maxTokens()),
                settings, assembler, new CommandBlockParser(mapper), new NoveltyScorer(),
                new Backoff(FIRST_RETRY, config.llm().maxBackoff()), writer, executor, events);
    }
}
