package dev.hmpagent.context;

import dev.hmpagent.store.GoalsDao;
import dev.hmpagent.store.MemoryDao;
import dev.hmpagent.store.MemoryRow;
import dev.hmpagent.store.WorkItem;
import java.util.Objects;

/** Context 6: goals and tasks (pinned first, then unfinished ones by priority), then the notebook, newest first. */
final class NotebookContext {
    static final int INDEX = 6;
    static final int MAX_MEMORY_ROWS = 50;
    static final int MAX_GOAL_ROWS = 20;

    /** Null only through the deprecated constructor of the assembler: goals and tasks are then not shown. */
    private final GoalsDao goals;
    private final MemoryDao memory;

    NotebookContext(GoalsDao goals, MemoryDao memory) {
        this.goals = goals;
        this.memory = Objects.requireNonNull(memory, "memory");
    }

    Section render() {
        Section s = new Section(INDEX, "your goals and tasks (pinned first) and your notebook (llm_memory, newest first)",
                "(empty: add with memory_add or goal_add)", false, 0);
        if (goals != null) {
            for (WorkItem.Kind kind : WorkItem.Kind.values()) {
                for (WorkItem w : goals.forContext(kind, MAX_GOAL_ROWS)) s.add(workItem(w), 0);
            }
        }
        for (MemoryRow m : memory.latest(MAX_MEMORY_ROWS)) {
            s.add("[memory " + m.id() + (m.tags() == null ? "" : ", tags " + m.tags()) + "] "
                    + (m.title() == null ? "" : m.title() + ": ") + Section.clip(m.content(), 2_000), 0);
        }
        return s;
    }

    private static String workItem(WorkItem w) {
        return "[" + w.kind().word() + " " + w.id() + (w.goalId() == 0 ? "" : " of goal " + w.goalId())
                + (w.pinned() ? ", pinned" : "") + ", " + w.status() + ", priority " + w.priority() + "] " + w.title()
                + (w.description().isEmpty() ? "" : ": " + Section.clip(w.description(), 500));
    }
}
