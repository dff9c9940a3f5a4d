package dev.hmpagent.commands;

import dev.hmpagent.store.ConceptsDao;
import dev.hmpagent.store.DiaryDao;
import dev.hmpagent.store.GoalsDao;
import dev.hmpagent.store.MemoryDao;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ResponsesDao;
import dev.hmpagent.store.SettingsDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.Tables;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;

/**
 * What a command may touch. The database-only commands of a reply run in one write transaction, each in a savepoint
 * of its own ({@link CommandBatch}), which the executor opens.
 */
public final class CommandContext {
    private final long tickId;
    private final String llmId;
    private final CommandRegistry registry;
    private final Tables tables;
    private final Clock clock;
    private final Store store;

    public CommandContext(long tickId, String llmId, CommandRegistry registry, Store store) {
        this.tickId = tickId;
        this.llmId = Objects.requireNonNull(llmId, "llmId");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.store = Objects.requireNonNull(store, "store");
        this.tables = store.tables();
        this.clock = store.clock();
    }

    public long tickId() { return tickId; }

    public String llmId() { return llmId; }

    public CommandRegistry registry() { return registry; }

    public NotesDao notes() { return tables.notes(); }

    public MemoryDao memory() { return tables.memory(); }

    public DiaryDao diary() { return tables.diary(); }

    public ConceptsDao concepts() { return tables.concepts(); }

    public ProcessLogDao processLog() { return tables.processLog(); }

    public SettingsDao settings() { return tables.settings(); }

    public GoalsDao goals() { return tables.goals(); }

    public ResponsesDao responses() { return tables.responses(); }

    /** Now, by the store's clock (the one its timestamps use). */
    public Instant now() { return clock.instant(); }

    /** The file, for handlers that need a transaction of their own or a DAO not listed here. */
    public Store store() { return store; }

    /** Every DAO of the file, made once for its connection: the HMP registries among them. */
    public Tables tables() { return tables; }
}
