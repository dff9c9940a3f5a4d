package dev.hmpagent.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The prepared statements of one {@link Store}'s connection, kept for the next use of the same SQL: SQLite compiles a
 * statement at every prepare (a quarter of a tick's time went to it), while a kept one is only reset and bound again.
 * A statement is taken while in use and given back once done with (its result set closed, so it holds no read
 * snapshot); a nested use of the same SQL while it is taken prepares another. Only data statements (SELECT, INSERT,
 * UPDATE, DELETE, WITH, REPLACE), BEGIN, COMMIT, SAVEPOINT and RELEASE are kept, at most {@link #MAX} of them, the least recently used closed first; a schema
 * change through this connection (any other statement, a migration) closes them all first. Thread-safe: a few
 * connections are read from two threads (the REPL's inspect connection: a slash command and the status line's
 * refresh), and a taken statement belongs to its taker alone.
 */
final class Statements {
    static final int MAX = 200;

    private final Connection connection;
    private final LinkedHashMap<String, PreparedStatement> idle = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
            if (size() <= MAX) return false;
            closeQuietly(eldest.getValue());
            return true;
        }
    };

    Statements(Connection connection) {
        this.connection = connection;
    }

    /** Whether statements of {@code sql} are kept: data statements only, never DDL nor a PRAGMA. */
    static boolean kept(String sql) {
        String head = sql.stripLeading();
        int end = 0;
        while (end < head.length() && Character.isLetter(head.charAt(end))) end++;
        return switch (head.substring(0, end).toUpperCase(Locale.ROOT)) {
            case "SELECT", "INSERT", "UPDATE", "DELETE", "WITH", "REPLACE", "BEGIN", "COMMIT", "SAVEPOINT", "RELEASE" -> true;
            default -> false;
        };
    }

    /**
     * A statement of {@code sql}: a kept one, with the values of its last use still bound, or a new one. The taker
     * binds every parameter ({@link Store}'s binding sets NULL where it has no value). Clearing the bindings instead
     * ({@code clearParameters}, SQLite's {@code sqlite3_clear_bindings}) marks a statement whose plan may depend on its
     * values as expired, and SQLite then compiles it again at its next step: that was 30-50 µs of every statement.
     */
    synchronized PreparedStatement take(String sql) throws SQLException {
        PreparedStatement ps = idle.remove(sql);
        return ps != null ? ps : connection.prepareStatement(sql);
    }

    /** Done with {@code ps}: kept when it {@code succeeded} and may be kept, else closed. */
    synchronized void release(String sql, PreparedStatement ps, boolean succeeded) {
        if (succeeded && kept(sql) && !idle.containsKey(sql)) idle.put(sql, ps);
        else closeQuietly(ps);
    }

    /** Closes every kept statement (before a schema change, or when the connection closes). */
    synchronized void clear() {
        if (idle.isEmpty()) return;
        for (PreparedStatement ps : new ArrayList<>(idle.values())) closeQuietly(ps);
        idle.clear();
    }

    /** How many statements are kept (for tests). */
    synchronized int size() { return idle.size(); }

    private static void closeQuietly(PreparedStatement ps) {
        try {
            ps.close();
        } catch (SQLException ignored) {
            // a statement that cannot close is finalized with the connection
        }
    }
}
