package dev.hmpagent.cli;

import dev.hmpagent.safety.SafetyGate;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.SafetyStatus;
import dev.hmpagent.store.NoteSpool;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.StoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Hands a note to the agent on a file, as {@code agent note} (source {@code cli}, a person at a shell) and
 * {@code agent mcp serve}'s note tool (source {@code peer}) do: a {@code notes} row and a wake-up request in one
 * transaction, or the spool beside the file when the file cannot take it now. Returns the lines that say what became
 * of it.
 */
final class NoteDelivery {
    private NoteDelivery() { }

    /** {@code source} is {@code cli} (a person) or {@code peer}; only a person's note ends a rest. */
    static List<String> deliver(Path file, Clock clock, String text, String source, int priority, String tags) {
        List<String> lines = new ArrayList<>();
        // no file (never made, or deleted under an agent, which then stops within a second): the note makes one,
        // which the next agent started on this path reads; it is said, so nobody expects a running agent to answer
        boolean created = !Files.exists(file);
        try (Store store = Store.open(file, clock)) {
            long id = store.inTransaction(() -> {
                long note = store.tables().notes().add(text, source, priority, tags);
                // wakes a running agent now rather than at its next poll
                store.tables().controlRequests().add("note", Long.toString(note), Requester.thisProcess());
                return note;
            });
            lines.add("note " + id + " queued in " + file + (created ? " (a new file: no agent had one at"
                    + " this path; the next agent started on it reads the note)" : ""));
            SafetyStatus state = new SafetyControl(store).current();
            if (state.resting()) {
                lines.add("resting: " + SafetyGate.describe(state) + (source.equals("peer")
                        ? "; a peer's note does not end the rest: the agent reads it when the rest is over"
                        : "; this note ends the rest"));
            } else if (!state.active()) {
                // stored and acknowledged, never executed or dropped: it is seen after a person releases the agent
                lines.add("locked: " + SafetyGate.describe(state)
                        + "; the note waits — run agent unlock to let the agent see it");
            }
        } catch (StoreException e) {
            if (!e.writeFailure()) throw e;
            // the file cannot take it now (another process holds the write lock, the disk is full): keep it
            Path db = file.toAbsolutePath();
            try {
                NoteSpool.spool(db, text, source, priority, tags);
            } catch (UncheckedIOException spoolFailed) {
                throw notKept(db, e, spoolFailed.getCause());
            }
            lines.add("note kept in " + NoteSpool.fileFor(db) + " (" + e.getMessage()
                    + "): a running agent stores it within a second, otherwise the next agent started on this file");
        }
        return List.copyOf(lines);
    }

    /** Neither the file nor the spool beside it took the note: one line (exit 5) saying so, and what to do. */
    private static StoreException notKept(Path db, StoreException dbFailed, IOException spoolFailed) {
        String spool = NoteSpool.fileFor(db).getFileName().toString();
        boolean full = dbFailed.kind() == StoreException.Kind.FULL
                || String.valueOf(spoolFailed.getMessage()).contains("No space left");
        if (full) {
            return new StoreException(StoreException.Kind.FULL, "the disk is full: the note was not kept (neither "
                    + db + " nor " + spool + " beside it could take it); free some space on it and send the note again",
                    dbFailed);
        }
        return new StoreException(dbFailed.kind(), "the note was not kept: " + dbFailed.getMessage() + "; " + spool
                + " beside it could not be written either (" + spoolFailed.getMessage() + "); send the note again"
                + " once the file takes writes", dbFailed);
    }
}
