package dev.hmpagent.context;

import dev.hmpagent.store.ConceptsDao;
import dev.hmpagent.store.DiaryDao;
import dev.hmpagent.store.GoalsDao;
import dev.hmpagent.store.MemoryDao;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ResponsesDao;
import dev.hmpagent.store.SettingsDao;
import dev.hmpagent.store.Store;
import java.util.Objects;

/** The tables contexts 1-6 are read from, one DAO each, built once per store. */
public record ContextSources(NotesDao notes, ProcessLogDao processLog, ResponsesDao responses, MemoryDao memory,
                             DiaryDao diary, ConceptsDao concepts, GoalsDao goals, SettingsDao settings) {
    public ContextSources {
        Objects.requireNonNull(notes, "notes");
        Objects.requireNonNull(processLog, "processLog");
        Objects.requireNonNull(responses, "responses");
        Objects.requireNonNull(memory, "memory");
        Objects.requireNonNull(diary, "diary");
        Objects.requireNonNull(concepts, "concepts");
        Objects.requireNonNull(goals, "goals");
        Objects.requireNonNull(settings, "settings");
    }

    /** Every DAO on {@code store} (the tick thread's connection). */
    public static ContextSources of(Store store) {
        return new ContextSources(store.tables().notes(), store.tables().processLog(), store.tables().responses(),
                store.tables().memory(), store.tables().diary(), store.tables().concepts(), store.tables().goals(),
                store.tables().settings());
    }
}
