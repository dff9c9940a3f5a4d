package dev.hmpagent.store;

import java.util.List;
import java.util.Objects;

/**
 * A row of {@code goals} or {@code tasks} (the same shape; a task may belong to a goal).
 *
 * @param goalId   the goal a task belongs to, 0 for none (and for goals)
 * @param evidence the process_log ids named when it was marked done
 */
public record WorkItem(Kind kind, long id, long goalId, String title, String description, String status, int priority,
                       boolean pinned, List<Long> evidence) {

    /** Goals or tasks: their table, the statuses they may have, the status a new one gets. */
    public enum Kind {
        GOAL("goals", "goal", List.of("active", "paused", "done", "dropped")),
        TASK("tasks", "task", List.of("open", "in_progress", "blocked", "done", "dropped"));

        /** The statuses after which a goal or task no longer shows unless pinned. */
        public static final List<String> FINISHED = List.of("done", "dropped");
        public static final String DONE = "done";

        final String table;
        private final String word;
        private final List<String> statuses;

        Kind(String table, String word, List<String> statuses) {
            this.table = table;
            this.word = word;
            this.statuses = statuses;
        }

        /** "goal" or "task". */
        public String word() { return word; }

        public List<String> statuses() { return statuses; }

        public String initialStatus() { return statuses.get(0); }
    }

    public WorkItem {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(status, "status");
        evidence = List.copyOf(evidence);
    }

    public boolean finished() {
        return Kind.FINISHED.contains(status);
    }
}
