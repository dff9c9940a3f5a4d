package dev.hmpagent.commands;

import dev.hmpagent.store.ConceptsDao;
import dev.hmpagent.store.DiaryDao;
import dev.hmpagent.store.MemoryDao;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.SettingsDao;
import dev.hmpagent.store.Store;
import java.util.Objects;

/** What a command may touch during one tick. All writes share the tick's transaction. */
public final class CommandContext {
    private final long tickId;
    private final String llmId;
    private final CommandRegistry registry;
    private final NotesDao notes;
    private final MemoryDao memory;
    private final DiaryDao diary;
    private final ConceptsDao concepts;
    private final ProcessLogDao processLog;
    private final SettingsDao settings;
    private final RegistryDaos registries;

    public CommandContext(long tickId, String llmId, CommandRegistry registry, Store store) {
        this.tickId = tickId;
        this.llmId = Objects.requireNonNull(llmId, "llmId");
        this.registry = Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(store, "store");
        this.notes = new NotesDao(store);
        this.memory = new MemoryDao(store);
        this.diary = new DiaryDao(store);
        this.concepts = new ConceptsDao(store);
        this.processLog = new ProcessLogDao(store);
        this.settings = new SettingsDao(store);
        this.registries = new RegistryDaos(store);
    }

    public long tickId() { return tickId; }

    public String llmId() { return llmId; }

    public CommandRegistry registry() { return registry; }

    public NotesDao notes() { return notes; }

    public MemoryDao memory() { return memory; }

    public DiaryDao diary() { return diary; }

    public ConceptsDao concepts() { return concepts; }

    public ProcessLogDao processLog() { return processLog; }

    public SettingsDao settings() { return settings; }

    /** The HMP registries: strategies and ratings, scripts, tables, LLMs, identity, peers, users, services. */
    public RegistryDaos registries() { return registries; }
}
