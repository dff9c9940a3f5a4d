package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.cycle.SafetyGate;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.SafetyStatus;
import dev.hmpagent.store.NoteSpool;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.StoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code agent note TEXT}: queue a message for the agent from another process (source 'cli'). */
@Command(name = "note", mixinStandardHelpOptions = true,
        description = {"Queue a message for the agent.", "A running agent picks it up within cycle.poll_ms."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  agent note \"check the logs in /var/log/app\"",
                "  agent note -p 5 -t ops,urgent \"the build is red\"",
                "  agent --db ~/agents/ops.db note \"stand down for the night\""})
final class NoteCommand extends Subcommand {
    @Parameters(arity = "1..*", paramLabel = "TEXT", description = "The message.")
    List<String> words;

    @Option(names = {"-p", "--priority"}, paramLabel = "N", defaultValue = "0", description = "Priority (higher is more urgent; default 0).")
    int priority;

    @Option(names = {"-t", "--tags"}, paramLabel = "TAGS", description = "Comma-separated tags.")
    String tags;

    NoteCommand(AgentCommand root, Launch launch) {
        super(root, launch);
    }

    @Override
    public Integer call() {
        AgentConfig config = config();
        String text = String.join(" ", words);
        // no file (never made, or deleted under an agent, which then stops within a second): the note makes one,
        // which the next agent started on this path reads; it is said, so nobody expects a running agent to answer
        boolean created = !java.nio.file.Files.exists(config.agent().db());
        try (Store store = Store.open(config.agent().db(), launch().clock())) {
            long id = store.inTransaction(() -> {
                long note = store.tables().notes().add(text, "cli", priority, tags);
                // wakes a running agent now rather than at its next poll
                store.tables().controlRequests().add("note", Long.toString(note), Requester.thisProcess());
                return note;
            });
            say("note " + id + " queued in " + config.agent().db() + (created ? " (a new file: no agent had one at"
                    + " this path; the next agent started on it reads the note)" : ""));
            SafetyStatus state = new SafetyControl(store).current();
            if (state.resting()) {
                say("resting: " + SafetyGate.describe(state) + "; this note ends the rest");
            } else if (!state.active()) {
                // stored and acknowledged, never executed or dropped: it is seen after a person releases the agent
                say("locked: " + SafetyGate.describe(state) + "; the note waits — run agent unlock to let the agent see it");
            }
        } catch (StoreException e) {
            if (!e.writeFailure()) throw e;
            // the file cannot take it now (another process holds the write lock, the disk is full): keep it
            Path db = config.agent().db().toAbsolutePath();
            try {
                NoteSpool.spool(db, text, "cli", priority, tags);
            } catch (UncheckedIOException spoolFailed) {
                throw notKept(db, e, spoolFailed.getCause());
            }
            say("note kept in " + NoteSpool.fileFor(db) + " (" + e.getMessage()
                    + "): a running agent stores it within a second, otherwise the next agent started on this file");
        }
        return ExitCodes.OK;
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
