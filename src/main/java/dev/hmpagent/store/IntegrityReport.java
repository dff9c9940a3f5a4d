package dev.hmpagent.store;

import java.util.List;

/**
 * What {@code PRAGMA integrity_check} found in a file.
 *
 * @param ok        true when SQLite found nothing wrong
 * @param problems  SQLite's problem lines, one line each, at most {@link #MAX_PROBLEMS}
 * @param truncated true when there were more problems than listed
 */
public record IntegrityReport(boolean ok, List<String> problems, boolean truncated) {
    public static final int MAX_PROBLEMS = 20;

    public IntegrityReport {
        problems = List.copyOf(problems);
    }

    static IntegrityReport clean() {
        return new IntegrityReport(true, List.of(), false);
    }
}
