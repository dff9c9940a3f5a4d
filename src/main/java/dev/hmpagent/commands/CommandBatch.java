package dev.hmpagent.commands;

import dev.hmpagent.store.Batch;
import dev.hmpagent.store.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The tick's database-only commands in one write transaction (issue 36): one BEGIN and one COMMIT for a row of them
 * instead of one each, each command in a savepoint of its own, so one that fails or crashes undoes its own writes
 * only and its error is still recorded. What ran in the transaction is reported (to the runs of the executor's answer
 * and its listener) once it is committed, so nothing is shown that the file may yet lose. The transaction is opened
 * only when a database-only command is about to run, never while the gate looks at a command, and committed before
 * anything that may wait (a person asked, a process or an LLM call started) and before the rows a halt ends.
 */
final class CommandBatch implements AutoCloseable {
    private final Batch transaction;
    private final List<CommandRun> runs;
    private final Consumer<CommandRun> onEach;
    /** Runs in the open transaction, reported when it commits. */
    private final List<CommandRun> held = new ArrayList<>();

    CommandBatch(Batch transaction, List<CommandRun> runs, Consumer<CommandRun> onEach) {
        this.transaction = transaction;
        this.runs = runs;
        this.onEach = onEach;
    }

    /** A database-only command is about to run: in the transaction, which begins now unless it is open. */
    void open() {
        transaction.open();
    }

    /** A command that ran: reported now, or once its transaction commits. */
    void add(CommandRun run) {
        if (transaction.isOpen()) held.add(run);
        else report(run);
    }

    /** Commits what ran in the transaction and reports it; nothing when none is open. */
    void commit() {
        transaction.commit();
        held.forEach(this::report);
        held.clear();
    }

    /**
     * After the file refused a write: commits the commands that ran before it when the file still lets it; when it
     * does not, their writes are rolled back with the rest and their rows stay pending, to run again, unreported.
     */
    void commitWhatRan() {
        try {
            commit();
        } catch (StoreException e) {
            held.clear();
        }
    }

    private void report(CommandRun run) {
        runs.add(run);
        onEach.accept(run);
    }

    /** Rolls back what was not committed (an unexpected failure): those rows stay pending. */
    @Override
    public void close() {
        held.clear();
        transaction.close();
    }
}
