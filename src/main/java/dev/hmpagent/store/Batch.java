package dev.hmpagent.store;

/**
 * A write transaction held open across several units of work (the tick's database-only commands, issue 36): one BEGIN
 * and one COMMIT for all of them instead of one each, while each unit ({@link Store#inTransaction} called while the
 * batch is open) runs in a savepoint of its own, so a unit that fails undoes its own writes only and the units before
 * it stay. Opened on first need by {@link #open()}, committed by {@link #commit()} (and opened again by the next
 * {@link #open()}); {@link #close()} rolls back what was not committed. Belongs to the Store's thread, like the Store.
 */
public final class Batch implements AutoCloseable {
    private final Transactions transactions;

    Batch(Transactions transactions) {
        this.transactions = transactions;
    }

    /**
     * Begins the batch's transaction (BEGIN IMMEDIATE) unless it is open. Inside a transaction the caller holds (a
     * test that runs commands inside one), it opens nothing: each unit joins that transaction, as any nested call does.
     */
    public void open() {
        transactions.openBatch();
    }

    /** Whether its transaction is open. */
    public boolean isOpen() {
        return transactions.batchOpen();
    }

    /** Commits what the units since {@link #open()} wrote; nothing when it is not open. Rolled back when it fails. */
    public void commit() {
        transactions.commitBatch();
    }

    /** Rolls back what was not committed. */
    @Override
    public void close() {
        transactions.rollBackBatch();
    }
}
