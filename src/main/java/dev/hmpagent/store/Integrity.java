package dev.hmpagent.store;

import dev.hmpagent.store.StoreException.Kind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Finds damaged files: a cheap look at open, and SQLite's full integrity check for {@code agent check}. */
final class Integrity {
    private Integrity() { }

    /**
     * At open: {@code PRAGMA quick_check(1)} when the file (with its WAL) is at most {@code quickCheckMaxBytes},
     * else only the schema is read. Either way a damaged file fails here with Kind CORRUPT (or NOT_A_DATABASE)
     * instead of being accepted and then failing every tick.
     */
    static void checkAtOpen(Store store, long quickCheckMaxBytes) {
        long size = size(store.path()) + size(Path.of(store.path() + "-wal"));
        if (size == 0) return;
        if (size > quickCheckMaxBytes) {
            store.queryLong("SELECT count(*) FROM sqlite_master");
            return;
        }
        String result = store.queryOne("PRAGMA quick_check(1)", rs -> rs.getString(1)).orElse("ok");
        if (result.equals("ok")) return;
        List<String> problems = problemLines(result);
        String first = problems.isEmpty() ? result : problems.get(0);
        throw new StoreException(Kind.CORRUPT, store.path() + " is damaged (quick_check: " + SqliteErrors.oneLine(first)
                + "): " + SqliteErrors.runCheck(store.path()));
    }

    /** SQLite's full {@code PRAGMA integrity_check}, keeping the problems it listed before any error. */
    static IntegrityReport check(Store store) {
        List<String> problems = new ArrayList<>();
        try {
            store.forEachRow("PRAGMA integrity_check(" + (IntegrityReport.MAX_PROBLEMS + 1) + ")",
                    rs -> rs.getString(1), row -> {
                        if (!row.equals("ok")) problems.addAll(problemLines(row));
                    });
        } catch (StoreException e) {
            if (e.kind() != Kind.CORRUPT && e.kind() != Kind.NOT_A_DATABASE) throw e;
            problems.add(sqliteWords(e));
        }
        return report(problems);
    }

    static IntegrityReport report(List<String> problems) {
        if (problems.isEmpty()) return IntegrityReport.clean();
        boolean truncated = problems.size() > IntegrityReport.MAX_PROBLEMS;
        return new IntegrityReport(false, truncated ? problems.subList(0, IntegrityReport.MAX_PROBLEMS) : problems,
                truncated);
    }

    /** SQLite's own words for a failure ("database disk image is malformed"). */
    static String sqliteWords(StoreException e) {
        return e.getCause() instanceof SQLException se ? SqliteErrors.detail(se) : e.getMessage();
    }

    /** A result row may hold several lines and a "*** in database main ***" heading; keep the problems. */
    private static List<String> problemLines(String row) {
        List<String> lines = new ArrayList<>();
        for (String line : row.split("\\R")) {
            String s = line.strip();
            if (!s.isEmpty() && !s.startsWith("*** in database")) lines.add(SqliteErrors.oneLine(s));
        }
        return lines;
    }

    private static long size(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            return 0;
        }
    }
}
