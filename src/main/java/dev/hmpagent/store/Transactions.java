package dev.hmpagent.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * The write transactions of one {@link Store}'s connection: one at a time, nested calls joining the outer one, and
 * (issue 36) a {@link Batch} that keeps one open across several units of work, each in a savepoint of its own.
 *
 * <p>The connection stays in JDBC autocommit mode and the transaction is driven with plain BEGIN / COMMIT / ROLLBACK
 * statements: sqlite-jdbc's own {@code commit()}/{@code rollback()} run "commit;" or "rollback;" and then immediately
 * BEGIN again, and when SQLite has already rolled the transaction back by itself (SQLITE_FULL, SQLITE_IOERR,
 * SQLITE_BUSY, SQLITE_NOMEM) that rollback fails with "no transaction is active", which used to leave the driver
 * believing a transaction was open while every later statement committed on its own.
 */
final class Transactions {
    /** The one name every unit of a batch uses: units never nest, so a kept statement serves them all. */
    private static final String SAVEPOINT = "SAVEPOINT unit";
    private static final String RELEASE = "RELEASE unit";

    private final Connection connection;
    private final Statements statements;
    private final BiFunction<String, SQLException, StoreException> translate;
    /** Told of every rollback and failed statement: what readers kept may be gone ({@link Freshness}). */
    private final Runnable undone;
    private int depth;
    /** Write transactions begun on this connection. */
    private long opened;
    /** Whether a {@link Batch} holds the transaction open: a call at its level becomes a unit (a savepoint). */
    private boolean batchOpen;
    /** Set when SQLite rolled the open transaction back by itself; later statements in it must not run. */
    private StoreException rolledBackBy;
    /** Set when a ROLLBACK failed; retried before the next statement. */
    private boolean rollbackPending;

    Transactions(Connection connection, Statements statements, BiFunction<String, SQLException, StoreException> translate,
                 Runnable undone) {
        this.connection = connection;
        this.statements = statements;
        this.translate = translate;
        this.undone = undone;
    }

    /** See {@link Store#inTransaction(Supplier)}. */
    <T> T inTransaction(Supplier<T> work) {
        if (depth == 1 && batchOpen) return unit(work);
        if (depth > 0) return joined(work);
        begin();
        boolean committed = false;
        try {
            T result = work.get();
            commit();
            committed = true;
            return result;
        } finally {
            ended(committed);
        }
    }

    private <T> T joined(Supplier<T> work) {
        depth++;
        try {
            return work.get();
        } finally {
            depth--;
        }
    }

    /**
     * One unit of an open batch, in its savepoint: released when it returns, rolled back to (its writes undone, the
     * units before it kept) when it throws, unless SQLite has already rolled the whole transaction back.
     */
    private <T> T unit(Supplier<T> work) {
        execute(SAVEPOINT, "savepoint");
        boolean done = false;
        try {
            T result = joined(work);
            done = true;
            return result;
        } finally {
            if (rolledBackBy == null) {
                if (!done) {
                    undone.run();
                    execute("ROLLBACK TO unit", "rollback to savepoint");
                }
                execute(RELEASE, "release savepoint");
            }
        }
    }

    private void begin() {
        settle();
        execute("BEGIN IMMEDIATE", "begin transaction");
        depth = 1;
        opened++;
    }

    /**
     * The number of the write transaction open now (each BEGIN IMMEDIATE a new one), or 0 outside one. While it is
     * open this connection holds the file's write lock, so no other connection commits ({@link Freshness}).
     */
    long writing() {
        return depth > 0 ? opened : 0;
    }

    private void commit() {
        if (rolledBackBy != null) throw alreadyRolledBack();
        execute("COMMIT", "commit");
    }

    /** The outermost transaction is over: committed, or rolled back now. */
    private void ended(boolean committed) {
        depth = 0;
        batchOpen = false;
        rolledBackBy = null;
        if (!committed) rollbackQuietly();
    }

    /** Begins a {@link Batch}'s transaction unless it is open; inside another one its units join that one instead. */
    void openBatch() {
        if (batchOpen || depth > 0) return;
        begin();
        batchOpen = true;
    }

    boolean batchOpen() {
        return batchOpen;
    }

    /** Commits a {@link Batch}'s transaction, if open; rolled back when the commit fails. */
    void commitBatch() {
        if (!batchOpen) return;
        boolean committed = false;
        try {
            commit();
            committed = true;
        } finally {
            ended(committed);
        }
    }

    /** Rolls back a {@link Batch}'s transaction, if open. */
    void rollBackBatch() {
        if (batchOpen) ended(false);
    }

    /** Runs one statement without parameters or results (BEGIN IMMEDIATE, COMMIT), kept prepared for the next time. */
    void execute(String sql, String what) {
        PreparedStatement ps = null;
        boolean succeeded = false;
        try {
            ps = statements.take(sql);
            ps.executeUpdate();
            succeeded = true;
        } catch (SQLException e) {
            throw fail(what, e);
        } finally {
            if (ps != null) statements.release(sql, ps, succeeded);
        }
    }

    /** Before a statement: refuse to run inside a transaction SQLite has already rolled back. */
    void ready() {
        if (rolledBackBy != null) throw alreadyRolledBack();
        settle();
    }

    /** Retries a ROLLBACK that failed earlier, so no statement runs inside a half-dead transaction. */
    private void settle() {
        if (!rollbackPending) return;
        try (Statement st = connection.createStatement()) {
            st.execute("ROLLBACK");
            rollbackPending = false;
        } catch (SQLException e) {
            if (SqliteErrors.noTransactionActive(e)) rollbackPending = false;
            else throw translate.apply("rollback", e);
        }
    }

    private void rollbackQuietly() {
        undone.run();
        rollbackPending = true;
        try {
            settle();
        } catch (StoreException ignored) {
            // the first error is the one to report; settle() retries before the next statement
        }
    }

    private StoreException alreadyRolledBack() {
        return new StoreException(rolledBackBy.kind(), rolledBackBy.getMessage(), rolledBackBy);
    }

    /**
     * Translates a failed statement. Inside a transaction, after the errors with which SQLite may roll the
     * whole transaction back by itself (see "Response To Errors Within A Transaction" in its docs), the
     * transaction is rolled back now and every later statement in it fails with the same error, so nothing
     * the caller does next can commit on its own.
     */
    StoreException fail(String what, SQLException e) {
        undone.run();
        StoreException translated = translate.apply(what, e);
        if (depth > 0 && rolledBackBy == null && SqliteErrors.mayEndTransaction(e)) {
            rolledBackBy = translated;
            rollbackQuietly();
        }
        return translated;
    }
}
