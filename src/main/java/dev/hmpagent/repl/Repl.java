package dev.hmpagent.repl;

import dev.hmpagent.cycle.CycleStatus;
import dev.hmpagent.cycle.TickLoop;
import dev.hmpagent.store.NoteSpool;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.UserInterruptException;

/**
 * The interactive front: a plain line becomes a {@code notes} row from the user and wakes the
 * tick loop; lines starting with '/' are REPL commands. Ctrl-C cancels the LLM call in flight;
 * Ctrl-D or /quit cuts a reply in flight short and leaves once the tick has written. When input
 * is not a terminal (a pipe), end of input lets the loop finish answering first. When the loop
 * ends by itself (it cannot think any more), the REPL stops reading and leaves too: it never
 * looks alive while nothing answers.
 */
public final class Repl {
    static final String PROMPT = "you> ";
    private static final long SPOOL_RETRY_NANOS = 1_000_000_000L;

    /** Facts /status shows that the REPL does not own. */
    public record Describe(String endpoint, String model, String dbPath) { }

    /** The human controls of the safety state (/halt, /unlock), each answering with one line to show. */
    public interface Controls {
        /** The persisted safety state on one line, e.g. "ACTIVE" or "STOPPED(halt) since … (reason)". */
        String safety();

        String halt(String reason);

        String unlock(String reason);
    }

    private final LineReader reader;
    private final boolean interactive;
    private final TickLoop loop;
    private final NoteSpool inbox;
    private final Describe describe;
    private final Duration giveUp;
    private final Controls controls;
    private final ReplApprover approver;
    private final Object readLock = new Object();
    private boolean reading;   // guarded by readLock

    /**
     * @param inbox  stores typed lines, or keeps them in its spool while the file cannot be written
     * @param giveUp piped input: how long, at its end, to wait for lines still in the spool to be stored
     */
    public Repl(LineReader reader, boolean interactive, TickLoop loop, NoteSpool inbox, Describe describe,
                Duration giveUp, Controls controls, ReplApprover approver) {
        this.approver = Objects.requireNonNull(approver, "approver");
        this.reader = Objects.requireNonNull(reader, "reader");
        this.controls = Objects.requireNonNull(controls, "controls");
        this.giveUp = Objects.requireNonNull(giveUp, "giveUp");
        this.interactive = interactive;
        this.loop = Objects.requireNonNull(loop, "loop");
        this.inbox = Objects.requireNonNull(inbox, "inbox");
        this.describe = Objects.requireNonNull(describe, "describe");
    }

    /**
     * Reads until /quit, Ctrl-D, end of input, or the loop ending by itself (the loop must be
     * started); returns why the loop ended.
     */
    public TickLoop.End run() throws InterruptedException {
        Thread readerThread = Thread.currentThread();
        loop.onEnd(() -> {
            synchronized (readLock) {
                if (reading) readerThread.interrupt();   // wakes a readLine blocked on the terminal
            }
        });
        try {
            readLines();
            if (!interactive) storeWaitingLines();
        } finally {
            // a person leaving should not wait minutes for a slow reply: cut it short, keep what came
            if (interactive && loop.cycle().cancelInFlight()) say("leaving: the reply in flight is cut short and kept");
            loop.stop(!interactive);
            loop.awaitStopped();
        }
        for (String lost : inbox.keepForNextStart()) {
            say("not stored, and it could not be kept anywhere (is the disk full?); send it again later: " + lost);
        }
        int waiting = inbox.waiting();
        if (waiting > 0) {
            say(waiting + (waiting == 1 ? " message waits" : " messages wait") + " in " + inbox.file()
                    + " to be stored: the next start stores " + (waiting == 1 ? "it" : "them"));
        }
        return loop.ended();
    }

    /** End of piped input: lines still in the spool are stored (and so answered) before the drain, up to the give-up time. */
    private void storeWaitingLines() {
        long deadline = System.nanoTime() + giveUp.toNanos();
        while (inbox.waiting() > 0 && loop.ended() == null && System.nanoTime() < deadline) {
            try {
                if (inbox.flush() > 0) loop.wake();
            } catch (RuntimeException e) {
                // still locked or full: try again in a second, until the give-up time
            }
            if (inbox.waiting() > 0) LockSupport.parkNanos(Math.min(SPOOL_RETRY_NANOS, deadline - System.nanoTime()));
        }
    }

    private void readLines() {
        while (true) {
            String line;
            try {
                synchronized (readLock) {
                    if (loop.ended() != null) return;
                    reading = true;
                }
                try {
                    line = reader.readLine(interactive ? PROMPT : "");
                } finally {
                    synchronized (readLock) {
                        reading = false;
                    }
                    if (loop.ended() != null) Thread.interrupted();   // clear the wake-up, not someone else's
                }
            } catch (UserInterruptException e) {
                if (loop.ended() != null) return;
                if (loop.cycle().cancelInFlight()) say("cancelled the reply in flight; what arrived so far is kept");
                else say("(Ctrl-D or /quit to leave)");
                continue;
            } catch (EndOfFileException e) {
                return;
            } catch (java.io.IOError e) {
                if (loop.ended() != null) return;   // interrupted because the loop ended
                throw e;
            }
            String text = line.strip();
            if (text.isEmpty()) continue;
            if (text.startsWith("/")) {
                if (!slash(text)) return;
                continue;
            }
            if (approver.offer(text)) continue;   // it answered the agent's question about a command
            submit(text);
        }
    }

    /** A typed line becomes a note now, or waits in the spool until the file takes writes again: never lost. */
    private void submit(String text) {
        try {
            NoteSpool.Submitted s = inbox.submit(text, "user", 0, null);
            if (s.stored()) {
                loop.wake();
                String safety = controls.safety();
                if (!safety.startsWith("ACTIVE")) {
                    say("locked: " + safety + "; your message is kept and seen after /unlock (or agent unlock)");
                }
            } else {
                say("your message is kept " + (s.inMemory() ? "in memory" : "in " + inbox.file().getFileName())
                        + " (" + s.problem() + ") and stored as soon as the file takes writes; /status shows what waits");
            }
        } catch (UncheckedIOException e) {
            say("your message could not be kept: " + e.getMessage());
        }
    }

    /** Runs a REPL command; false means leave. */
    private boolean slash(String text) {
        String[] parts = text.split("\\s+", 2);
        String cmd = parts[0];
        String rest = parts.length > 1 ? parts[1].strip() : null;
        switch (cmd) {
            case "/quit", "/exit" -> {
                return false;
            }
            case "/help" -> say(help());
            case "/status" -> say(status());
            case "/halt" -> say(controls.halt(rest));
            case "/unlock" -> say(controls.unlock(rest));
            default -> say("unknown command " + cmd + "; /help lists them");
        }
        return true;
    }

    static String help() {
        return """
                Type a message and press Enter: it goes to the agent as a note, and the agent answers above the prompt.
                  /status   state, tick, tokens used, LLM endpoint, database
                  /halt [why]    stop the agent now (cancels the reply in flight; it stays stopped until /unlock)
                  /unlock [why]  let a stopped agent think again
                  /help     this list
                  /quit     leave (Ctrl-D too); a reply in flight is cut short and the tick finishes writing
                  Ctrl-C    cancel the LLM reply in flight (the partial reply is kept, marked interrupted)""";
    }

    String status() {
        CycleStatus s = loop.cycle().status();
        String retry = s.retryAt().map(t -> "; next try at " + t + " after: " + s.lastError()).orElse("");
        if (s.trouble() == CycleStatus.Trouble.LLM_REJECTED) {
            retry = "; the LLM refused the last request (" + s.lastError() + "): it is asked again when you send a message";
        }
        int waiting = inbox.waiting();
        String spooled = waiting == 0 ? "" : "; " + waiting + " typed " + (waiting == 1 ? "line waits" : "lines wait")
                + " to be stored (in " + inbox.file().getFileName() + ")";
        return "safety " + controls.safety() + "; phase " + s.phase() + retry + "; tick " + s.lastTickId() + "; tokens used " + s.tokensUsed()
                + "; unread messages " + inbox.unread() + spooled + "; LLM " + describe.model() + " at "
                + describe.endpoint() + "; db " + describe.dbPath();
    }

    private void say(String text) {
        PrintWriter w = reader.getTerminal().writer();
        reader.printAbove(EventRenderer.printable(text));
        w.flush();
    }
}
