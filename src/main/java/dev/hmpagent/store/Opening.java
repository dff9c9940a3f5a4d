package dev.hmpagent.store;

import dev.hmpagent.store.StoreException.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import org.sqlite.SQLiteConfig;

/** How a {@link Store} comes to be: connection settings, the damage check, and migration or its absence. */
final class Opening {
    private Opening() { }

    /** Opens (creating if needed), checks and migrates the file. */
    static Store readWrite(Path path, Clock clock, OpenOptions options) {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(options, "options");
        Path absolute = path.toAbsolutePath();
        Path parent = absolute.getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new StoreException("cannot open " + path + ": directory " + parent
                    + " does not exist; create it or choose another --db");
        }
        if (Files.exists(absolute)) requireOurs(absolute, clock, options);
        Store store = connect(absolute, clock, options, false);
        try {
            Integrity.checkAtOpen(store, options.quickCheckMaxBytes());
            new Migrator(store).migrate();
            return store;
        } catch (RuntimeException e) {   // not handled here: the half-opened connection is closed, the failure goes on
            store.close();
            throw e;
        }
    }

    /**
     * An existing file is looked at read-only first: a read-write connection switches it to WAL at once, and
     * closing one may checkpoint another program's WAL into its file.
     */
    private static void requireOurs(Path absolute, Clock clock, OpenOptions options) {
        try (Store look = connect(absolute, clock, options, true)) {
            Ownership.requireOurs(look);
        }
    }

    /** One more read-write connection to a file another connection has checked and migrated. */
    static Store another(Path absolute, Clock clock, OpenOptions options) {
        return connect(absolute, clock, options, false);
    }

    /** Opens an existing file read-only and checks it; it must be at the latest schema version. */
    static Store readOnly(Path path, Clock clock, OpenOptions options) {
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(options, "options");
        Store store = connect(existing(path), clock, options, true);
        try {
            Ownership.requireOurs(store);
            Integrity.checkAtOpen(store, options.quickCheckMaxBytes());
            new Migrator(store).requireCurrent();
            return store;
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /** The full integrity check on a file opened read-only; a file that is no database is reported. */
    static IntegrityReport checkIntegrity(Path path) {
        try (Store store = connect(existing(path), Clock.systemUTC(), OpenOptions.DEFAULT, true)) {
            return Integrity.check(store);
        } catch (StoreException e) {
            if (e.kind() != Kind.CORRUPT && e.kind() != Kind.NOT_A_DATABASE) throw e;
            return Integrity.report(List.of(Integrity.sqliteWords(e)));
        }
    }

    private static Store connect(Path path, Clock clock, OpenOptions options, boolean readOnly) {
        SQLiteConfig config = new SQLiteConfig();
        if (readOnly) config.setReadOnly(true);
        config.setBusyTimeout(options.busyTimeoutMs());
        config.enforceForeignKeys(true);
        // Store.insert reads last_insert_rowid() itself: the driver would otherwise run that query after every write
        config.setGetGeneratedKeys(false);
        try {
            Connection c = config.createConnection("jdbc:sqlite:" + path);
            try {
                c.setAutoCommit(true);
                // after the connection has its busy timeout: the driver applies its pragmas in no fixed
                // order, and a switch to WAL without one fails at once while another process creates the file
                if (!readOnly) {
                    try (Statement st = c.createStatement()) {
                        st.execute("PRAGMA busy_timeout = " + options.busyTimeoutMs());
                        switchToWal(st, options.busyTimeoutMs());
                        st.execute("PRAGMA synchronous = NORMAL");
                    }
                }
            } catch (SQLException e) {
                c.close();
                throw e;
            }
            return new Store(path, clock, c, options.busyTimeoutMs());
        } catch (SQLException e) {
            throw SqliteErrors.translate("open " + path, e, path, options.busyTimeoutMs());
        }
    }

    /**
     * {@code PRAGMA journal_mode = WAL}, retried while it reports SQLITE_BUSY, up to the busy timeout. The
     * switch needs an exclusive lock, and SQLite answers BUSY at once, without its busy handler, when
     * waiting could deadlock (another connection is creating the same new file): so the wait is here.
     */
    private static void switchToWal(Statement st, int busyTimeoutMs) throws SQLException {
        long deadline = System.nanoTime() + busyTimeoutMs * 1_000_000L;
        long pauseMs = 1;
        while (true) {
            try {
                st.execute("PRAGMA journal_mode = WAL");
                return;
            } catch (SQLException e) {
                if ((e.getErrorCode() & 0xff) != 5 || System.nanoTime() > deadline) throw e;   // 5: SQLITE_BUSY
            }
            LockSupport.parkNanos(pauseMs * 1_000_000L);
            pauseMs = Math.min(50, pauseMs * 2);
        }
    }

    private static Path existing(Path path) {
        Objects.requireNonNull(path, "path");
        Path absolute = path.toAbsolutePath();
        if (!Files.isRegularFile(absolute)) {
            throw new StoreException(absolute + " does not exist: pass the agent's file with --db"
                    + " (an agent creates it when it first starts)");
        }
        return absolute;
    }
}
