package dev.hmpagent.repl;

import dev.hmpagent.cycle.CycleStatus;
import dev.hmpagent.cycle.TickLoop;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.StoreException;
import java.io.PrintWriter;
import java.util.Objects;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.UserInterruptException;

/**
 * The interactive front: a plain line becomes a {@code notes} row from the user and wakes the
 * tick loop; lines starting with '/' are REPL commands. Ctrl-C cancels the LLM call in flight;
 * Ctrl-D or /quit cuts a reply in flight short and leaves once the tick has written. When input
 * is not a terminal (a pipe), end of input lets the loop finish answering first.
 */
public final class Repl {
    static final String PROMPT = "you> ";

    /** Facts /status shows that the REPL does not own. */
    public record Describe(String endpoint, String model, String dbPath) { }

    private final LineReader reader;
    private final boolean interactive;
    private final TickLoop loop;
    private final NotesDao notes;
    private final Describe describe;

    public Repl(LineReader reader, boolean interactive, TickLoop loop, NotesDao notes, Describe describe) {
        this.reader = Objects.requireNonNull(reader, "reader");
        this.interactive = interactive;
        this.loop = Objects.requireNonNull(loop, "loop");
        this.notes = Objects.requireNonNull(notes, "notes");
        this.describe = Objects.requireNonNull(describe, "describe");
    }

    /** Runs until /quit, Ctrl-D or end of input; returns the exit code. */
    public int run() throws InterruptedException {
        loop.start();
        try {
            readLines();
        } finally {
            // a person leaving should not wait minutes for a slow reply: cut it short, keep what came
            if (interactive && loop.cycle().cancelInFlight()) say("leaving: the reply in flight is cut short and kept");
            loop.stop(!interactive);
            loop.awaitStopped();
        }
        return 0;
    }

    private void readLines() {
        while (true) {
            String line;
            try {
                line = reader.readLine(interactive ? PROMPT : "");
            } catch (UserInterruptException e) {
                if (loop.cycle().cancelInFlight()) say("cancelled the reply in flight; what arrived so far is kept");
                else say("(Ctrl-D or /quit to leave)");
                continue;
            } catch (EndOfFileException e) {
                return;
            }
            String text = line.strip();
            if (text.isEmpty()) continue;
            if (text.startsWith("/")) {
                if (!slash(text)) return;
                continue;
            }
            try {
                notes.add(text, "user", 0, null);
                loop.wake();
            } catch (StoreException e) {
                // one failed line must not end the session; the text stays in history
                say("your message was not saved (" + e.getMessage() + "); press Up and Enter to send it again");
            }
        }
    }

    /** Runs a REPL command; false means leave. */
    private boolean slash(String text) {
        String cmd = text.split("\\s+", 2)[0];
        switch (cmd) {
            case "/quit", "/exit" -> {
                return false;
            }
            case "/help" -> say(help());
            case "/status" -> say(status());
            default -> say("unknown command " + cmd + "; /help lists them");
        }
        return true;
    }

    static String help() {
        return """
                Type a message and press Enter: it goes to the agent as a note, and the agent answers above the prompt.
                  /status   state, tick, tokens used, LLM endpoint, database
                  /help     this list
                  /quit     leave (Ctrl-D too); a reply in flight is cut short and the tick finishes writing
                  Ctrl-C    cancel the LLM reply in flight (the partial reply is kept, marked interrupted)""";
    }

    String status() {
        CycleStatus s = loop.cycle().status();
        String retry = s.retryAt().map(t -> "; next LLM try at " + t + " after: " + s.lastError()).orElse("");
        return "state " + s.phase() + retry + "; tick " + s.lastTickId() + "; tokens used " + s.tokensUsed()
                + "; unread messages " + notes.unreadCount() + "; LLM " + describe.model() + " at " + describe.endpoint()
                + "; db " + describe.dbPath();
    }

    private void say(String text) {
        PrintWriter w = reader.getTerminal().writer();
        reader.printAbove(EventRenderer.printable(text));
        w.flush();
    }
}
