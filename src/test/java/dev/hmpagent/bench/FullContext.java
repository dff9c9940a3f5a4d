package dev.hmpagent.bench;

import dev.hmpagent.context.ContextKeys;
import dev.hmpagent.store.ConceptsDao;
import dev.hmpagent.store.DiaryDao;
import dev.hmpagent.store.GoalsDao;
import dev.hmpagent.store.MemoryDao;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ResponsesDao;
import dev.hmpagent.store.SettingsDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.WorkItem;

/**
 * A file whose every context is full: more rows than each context shows, each as long as its clip allows, so a prompt
 * at the default budget (6,000 tokens) drops most of them. Used by {@code scripts/bench assemble} and by the test that
 * pins the trimmed prompt's bytes.
 */
public final class FullContext {
    private FullContext() { }

    /** Fills every context; {@code replies} replies from tick 1 on, the same text for the same arguments. */
    public static void fill(Store store, int replies) {
        ResponsesDao responses = new ResponsesDao(store);
        for (int i = 1; i <= replies; i++) {
            responses.add(i, ("thought " + i + " about the backup, ").repeat(150), i % 2 == 0 ? "" : "reflected " + i,
                    i % 3 == 0 ? null : 0.25 * (i % 4), 100, 50, false, i % 5 == 0, i % 7 == 0, "m");
        }
        ProcessLogDao processes = new ProcessLogDao(store);
        for (int i = 1; i <= 60; i++) {
            processes.record(i, "shell", "c-" + i, "{}", i % 6 == 0 ? "error" : "ok",
                    ("line " + i + " of the output\n").repeat(60), i % 6 == 0 ? 0.5 : 0, "fp" + i);
        }
        MemoryDao memory = new MemoryDao(store);
        for (int i = 1; i <= 60; i++) memory.add("note " + i, ("remember " + i + " well; ").repeat(150), "t" + (i % 3), "m");
        GoalsDao goals = new GoalsDao(store);
        for (int i = 1; i <= 25; i++) {
            long goal = goals.add(WorkItem.Kind.GOAL, 0, "goal " + i, ("why goal " + i + " matters ").repeat(30), i % 4, "m");
            goals.add(WorkItem.Kind.TASK, goal, "task " + i, ("what task " + i + " does ").repeat(30), i % 3, "m");
            if (i % 8 == 0) goals.pin(WorkItem.Kind.GOAL, goal, i);
        }
        DiaryDao diary = new DiaryDao(store);
        ConceptsDao concepts = new ConceptsDao(store);
        for (int i = 1; i <= 15; i++) {
            long entry = diary.add(("backup diary " + i + ": the upload stalled again. ").repeat(60), "backup", 0, "m");
            diary.pin(entry, i);
            long concept = concepts.upsert("backup concept " + i, ("a backup idea " + i + " ").repeat(60), "m");
            if (i % 2 == 0) concepts.pin(concept, i);
            if (i > 1) concepts.link(concept, concept - 1, "follows", "m");
        }
        new SettingsDao(store).put(ContextKeys.DIARY_QUERY, "backup");
        NotesDao notes = new NotesDao(store);
        String[] sources = {"user", "cli", "mesh"};
        for (int i = 1; i <= 45; i++) {
            notes.add(("message " + i + " about the nightly backup. ").repeat(120), sources[i % 3], i % 3,
                    i % 4 == 0 ? "backup,urgent" : null);
        }
    }
}
