package dev.hmpagent.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One connection to the agent's SQLite file (WAL, busy_timeout, foreign keys on), checked for damage and
 * migrated on open ({@link #openReadOnly} neither migrates nor writes). A Store belongs to one thread at a
 * time; each thread that writes opens its own. The DAOs in this package reach JDBC only through the
 * helpers here; failures reach callers as {@link StoreException} with a {@link StoreException.Kind}.
 */
public final class Store implements AutoCloseable {
    static final int BUSY_TIMEOUT_MS = 5_000;

    private final Path path;
    private final Clock clock;
    private final Connection connection;
    /** The statements prepared on it, kept for the next use of the same SQL. */
    private final Statements statements;
    /** Prepared once: {@link #dataVersion()} is polled many times a second. */
    private PreparedStatement dataVersion;
    private final int busyTimeoutMs;
    /** Its write transactions: BEGIN, COMMIT, rollbacks, batches. */
    private final Transactions transactions;
    private final Freshness freshness = new Freshness();
    private final KeptReads keptReads = new KeptReads();
    private final Schema schema = new Schema(this, freshness);
    private final Tables tables;

    /** Built by {@link Opening}, which owns how files are opened. */
    Store(Path path, Clock clock, Connection connection, int busyTimeoutMs) {
        this.path = path;
        this.clock = clock;
        this.connection = connection;
        this.statements = new Statements(connection);
        this.busyTimeoutMs = busyTimeoutMs;
        this.transactions = new Transactions(connection, statements, this::translate, freshness::anything);
        this.tables = new Tables(this);
    }

    /** Opens (creating if needed) and migrates the file. */
    public static Store open(Path path, Clock clock) {
        return open(path, clock, OpenOptions.DEFAULT);
    }

    /** As {@link #open(Path, Clock)}, waiting at most {@code busyTimeoutMs} for a lock (tests keep it short). */
    static Store open(Path path, Clock clock, int busyTimeoutMs) {
        return open(path, clock, OpenOptions.DEFAULT.withBusyTimeoutMs(busyTimeoutMs));
    }

    static Store open(Path path, Clock clock, OpenOptions options) {
        return Opening.readWrite(path, clock, options);
    }

    /**
     * Opens an existing file for reading only ({@code agent status}, {@code agent config}): no migration, no
     * write lock, never creates the file; every write through it fails with Kind READ_ONLY. A file whose
     * schema is older than this code is refused with advice to start the agent once (which upgrades it).
     */
    public static Store openReadOnly(Path path, Clock clock) {
        return Opening.readOnly(path, clock, OpenOptions.DEFAULT);
    }

    static Store openReadOnly(Path path, Clock clock, OpenOptions options) {
        return Opening.readOnly(path, clock, options);
    }

    /** Another read-write connection for another thread; neither checked nor migrated again (once per start). */
    public Store connectAgain() {
        return Opening.another(path, clock, OpenOptions.DEFAULT.withBusyTimeoutMs(busyTimeoutMs));
    }

    /** As {@link #connectAgain()}, waiting at most {@code busyTimeout} for another connection's lock. */
    public Store connectAgain(java.time.Duration busyTimeout) {
        return Opening.another(path, clock, OpenOptions.DEFAULT.withBusyTimeoutMs(Math.toIntExact(busyTimeout.toMillis())));
    }

    /** SQLite's {@code PRAGMA data_version}: moves when another connection committed since this one's last call. */
    public long dataVersion() {
        try {
            if (dataVersion == null) dataVersion = connection.prepareStatement("PRAGMA data_version");
            try (ResultSet rs = dataVersion.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        } catch (SQLException e) {
            throw translate("PRAGMA data_version", e);
        }
    }

    /** One look at what other connections committed, for the reads until it is closed: see {@link Look}. */
    public Look oneLook() {
        long id = freshness.openLook();
        return () -> freshness.closeLook(id);
    }

    public Path path() { return path; }

    /** The DAOs of this connection, made once when it was opened. */
    public Tables tables() { return tables; }

    public Clock clock() { return clock; }

    /** The clock's now as the ISO-8601 UTC text stored in timestamp columns. */
    public String now() { return format(clock.instant()); }

    private volatile java.util.function.UnaryOperator<String> resultScrub = java.util.function.UnaryOperator.identity();

    /**
     * What every command result written to {@code process_log} through this connection goes through first: the
     * agent's own keys, should a command print one or a file hold one, are never stored nor shown to the LLM.
     */
    public void scrubResultsWith(java.util.function.UnaryOperator<String> scrub) {
        this.resultScrub = java.util.Objects.requireNonNull(scrub, "scrub");
    }

    /** {@code result} as {@link #scrubResultsWith} says it may be stored ({@code null} stays {@code null}). */
    public String scrubResult(String result) {
        return result == null ? null : resultScrub.apply(result);
    }

    public static String format(Instant instant) { return DateTimeFormatter.ISO_INSTANT.format(instant); }

    /**
     * Runs {@code work} in one write transaction (BEGIN IMMEDIATE; nested calls join the outer one): all of
     * it is committed or none of it. After any failure the connection is back in autocommit with no
     * transaction open, so the next call starts clean. While a {@link #batch()} is open, a call at its level is
     * one unit of the batch, in a savepoint: a failure undoes this unit's writes only.
     */
    public <T> T inTransaction(Supplier<T> work) {
        return transactions.inTransaction(work);
    }

    /** A batch of this connection's transactions, not yet open: see {@link Batch}. */
    public Batch batch() {
        return new Batch(transactions);
    }

    public void inTransaction(Runnable work) {
        inTransaction(() -> {
            work.run();
            return null;
        });
    }

    /**
     * Caps this connection's file at {@code pages} pages ({@code PRAGMA max_page_count}; other connections are not
     * capped). SQLite never sets it below the file's size, so a small value freezes the file where it is; writes that
     * need a new page then fail as if the disk were full. Returns the cap now in force, in pages.
     */
    public long setMaxPageCount(long pages) {
        if (pages < 1) throw new IllegalArgumentException("pages must be >= 1: " + pages);
        return queryLong("PRAGMA max_page_count = " + pages);
    }

    /**
     * Proves the file can be written now: a small committed write that needs room for 16 KB of new data
     * (see {@link WriteProbe}). Call it after write failures before spending work that must be saved.
     *
     * @throws StoreException when the file cannot be written (full, I/O error, read-only, locked)
     */
    public void probeWrite() {
        new WriteProbe(this).run();
    }

    /** Runs SQLite's full {@code PRAGMA integrity_check} on this file (slow on big files: ≈ 140 ms for 50 MB). */
    public IntegrityReport checkIntegrity() {
        return Integrity.check(this);
    }

    /**
     * Runs the full integrity check on the file at {@code path}, opened read-only (no migration, nothing
     * written): for {@code agent check}. A file SQLite cannot even read as a database is reported, not thrown.
     *
     * @throws StoreException when the file does not exist or cannot be opened
     */
    public static IntegrityReport checkIntegrity(Path path) {
        return Opening.checkIntegrity(path);
    }

    // ---- helpers for the DAOs --------------------------------------------------------------

    /** Reads one row into a value. */
    @FunctionalInterface
    interface RowMapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    int update(String sql, Object... params) {
        // a schema change (DROP TABLE of an agent table): no kept statement may outlive the table it was compiled for
        if (!Statements.kept(sql)) schemaChanged();
        int changed = run(sql, params, PreparedStatement::executeUpdate);
        freshness.wrote(sql, changed);   // after it ran: a write that changed no row moves no kept read
        return changed;
    }

    /** Where {@code table}'s rows stand for this connection's readers: see {@link Freshness}. */
    Freshness.Stamp stamp(String table) {
        schema.tables();   // which writes reach other tables, known before any stamp is kept
        return freshness.stamp(table, transactions.writing(), this::dataVersion);
    }

    /**
     * Like {@link #query}, for a small read a tick repeats: the rows are kept, unmodifiable, and read again only once a
     * table the SQL names was written ({@link KeptReads}). {@code mapper} must be free of side effects and make
     * values nothing changes afterwards.
     */
    <T> List<T> queryKept(String sql, RowMapper<T> mapper, Object... params) {
        if (schema.tables().isEmpty()) return query(sql, mapper, params);   // a view: what it reads is not in its SQL
        List<String> read = keptReads.tables(sql, schema::tables);
        Freshness.Stamp stamp = freshness.stamp(read, transactions.writing(), this::dataVersion);
        return keptReads.get(sql, params, stamp, () -> query(sql, mapper, params));
    }

    /** {@link #queryOne} through {@link #queryKept}. */
    <T> Optional<T> queryOneKept(String sql, RowMapper<T> mapper, Object... params) {
        List<T> rows = queryKept(sql, mapper, params);
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }

    /** {@link #queryLong} through {@link #queryKept}. */
    long queryLongKept(String sql, Object... params) {
        List<Long> rows = queryKept(sql, rs -> rs.getLong(1), params);
        return rows.isEmpty() ? 0L : rows.get(0);
    }

    /** A statement that changed the schema (or a script): no kept statement or read outlives it. */
    private void schemaChanged() {
        statements.clear();
        keptReads.schemaChanged();
        schema.changed();
    }

    /**
     * Runs an INSERT into a rowid table and returns the rowid it gave, read back by the statement itself ({@code
     * RETURNING}: all its changes are made at its first step); a second statement for {@code last_insert_rowid()}
     * cost ~30 µs in a tick, six times a tick (issue 36). An INSERT that inserted nothing (OR IGNORE) returns {@code
     * last_insert_rowid()}, as it always did.
     */
    long insert(String sql, Object... params) {
        freshness.wrote(sql);
        Long id = run(sql + " RETURNING rowid", params, ps -> {
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        });
        return id != null ? id : lastInsertRowid(sql);
    }

    /**
     * {@link #insert} into a table whose columns the LLM named (an agent table): one of them may be called {@code
     * rowid}, which {@code RETURNING rowid} would read instead, so the id is asked of {@code last_insert_rowid()}.
     */
    long insertNamedByAgent(String sql, Object... params) {
        freshness.wrote(sql);
        run(sql, params, PreparedStatement::executeUpdate);
        return lastInsertRowid(sql);
    }

    private long lastInsertRowid(String sql) {
        return queryOne("SELECT last_insert_rowid()", rs -> rs.getLong(1))
                .orElseThrow(() -> new StoreException("insert returned no id: " + sql));
    }

    <T> List<T> query(String sql, RowMapper<T> mapper, Object... params) {
        return run(sql, params, ps -> {
            try (ResultSet rs = ps.executeQuery()) {
                List<T> rows = new ArrayList<>();
                while (rs.next()) rows.add(mapper.map(rs));
                return rows;
            }
        });
    }

    /** Hands each row to {@code sink} as it is read, so rows read before a failure are not lost. */
    <T> void forEachRow(String sql, RowMapper<T> mapper, Consumer<T> sink, Object... params) {
        run(sql, params, ps -> {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) sink.accept(mapper.map(rs));
            }
            return null;
        });
    }

    /** What is done with one bound statement (its result set closed before it returns). */
    @FunctionalInterface
    private interface StatementWork<T> {
        T run(PreparedStatement ps) throws SQLException;
    }

    /** Runs {@code work} on a statement of {@code sql} with {@code params} bound, kept for the next use if it went well. */
    private <T> T run(String sql, Object[] params, StatementWork<T> work) {
        transactions.ready();
        PreparedStatement ps = null;
        boolean succeeded = false;
        try {
            ps = statements.take(sql);
            bind(ps, params);
            T result = work.run(ps);
            succeeded = true;
            return result;
        } catch (SQLException e) {
            throw transactions.fail(sql, e);
        } finally {
            if (ps != null) statements.release(sql, ps, succeeded);
        }
    }

    <T> Optional<T> queryOne(String sql, RowMapper<T> mapper, Object... params) {
        List<T> rows = query(sql, mapper, params);
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }

    long queryLong(String sql, Object... params) {
        return queryOne(sql, rs -> rs.getLong(1), params).orElse(0L);
    }

    /** Runs a script of several statements (a migration). */
    void executeScript(String sql) {
        freshness.anything();
        transactions.ready();
        schemaChanged();
        try (Statement st = connection.createStatement()) {
            for (String statement : SqlScript.split(sql)) st.execute(statement);
        } catch (SQLException e) {
            throw transactions.fail("migration", e);
        }
    }

    /** Escapes LIKE wildcards so {@code s} matches literally; use with {@code ESCAPE '\\'}. */
    static String likeLiteral(String s) {
        return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    boolean tableExists(String name) {
        return queryLong("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", name) > 0;
    }

    /** Binds every parameter of {@code ps}: {@code params} in order, NULL for any beyond them (a kept statement). */
    private static void bind(PreparedStatement ps, Object... params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            Object p = params[i];
            if (p instanceof Boolean b) ps.setInt(i + 1, b ? 1 : 0);
            else if (p instanceof Instant t) ps.setString(i + 1, format(t));
            else ps.setObject(i + 1, p);
        }
        int count = ps.getParameterMetaData().getParameterCount();
        for (int i = params.length; i < count; i++) ps.setObject(i + 1, null);
    }

    private StoreException translate(String what, SQLException e) {
        return SqliteErrors.translate(what, e, path, busyTimeoutMs);
    }

    @Override
    public void close() {
        statements.clear();
        try {
            connection.close();
        } catch (SQLException ignored) {
            // closing is best effort; nothing is left to save
        }
    }
}
