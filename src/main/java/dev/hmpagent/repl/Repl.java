package dev.hmpagent.repl;

import dev.hmpagent.cycle.TickLoop;
import dev.hmpagent.store.NoteSpool;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.MaskingCallback;
import org.jline.reader.UserInterruptException;
import org.jline.utils.AttributedString;
import org.jline.utils.InfoCmp;

/**
 * The interactive front: a plain line becomes a {@code notes} row from the user and wakes the tick loop; lines
 * starting with '/' are REPL commands (one registry: /help, completion, did-you-mean). A {@code """} line starts a
 * block of several lines, ended by a line ending in {@code """}. Ctrl-C cancels the LLM call in flight and keeps the
 * half-typed line; at an empty prompt with nothing in flight a second Ctrl-C within 2 s leaves, as do Ctrl-D and
 * /quit (a reply in flight is cut short, and the tick finishes writing first). When input is not a terminal (a
 * pipe), end of input lets the loop finish answering first. When the loop ends by itself (it cannot think any more),
 * the REPL stops reading and leaves too: it never looks alive while nothing answers.
 */
public final class Repl {
    public static final String PROMPT = "you> ";
    static final String MORE = "...> ";
    public static final String BLOCK = "\"\"\"";
    static final Duration DOUBLE_CTRL_C = Duration.ofSeconds(2);
    private static final long SPOOL_RETRY_NANOS = 1_000_000_000L;

    /** Facts /status shows that the REPL does not own; {@code costs} prices the tokens (llm.prices). */
    public record Describe(java.util.function.Supplier<String> endpoint, java.util.function.Supplier<String> model,
                           String dbPath, Costs costs) {
        public Describe {
            java.util.Objects.requireNonNull(costs, "costs");
        }
    }

    /** The human controls of the agent's file (/halt, /unlock, /drop) and what /status reads from it. */
    public interface Controls {
        /** The persisted safety state on one line, e.g. "ACTIVE" or "STOPPED(halt) since … (reason)". */
        String safety();

        /** Whether a message is thought about without an unlock: ACTIVE, or the reflex's rest (a message ends it). */
        boolean active();

        String halt(String reason);

        String unlock(String reason);

        /** Marks the person's unread messages read, so no reply answers them; returns how many. */
        int dropUnread();

        TokenFigures tokens();

        /** Tokens by model this session and lifetime; empty while the file cannot be read. */
        java.util.Optional<ModelUsage> usage();
    }

    private final LineReader reader;
    private final JLineScreen screen;
    private final boolean interactive;
    private final PipedLines piped;
    private final TickLoop loop;
    private final NoteSpool inbox;
    private final Describe describe;
    private final Duration giveUp;
    private final Controls controls;
    private final OpenQuestion question;
    private final EventRenderer renderer;
    private final Clock clock;
    private final ReplStatus status;
    private final SlashCommands commands = new SlashCommands();
    private final Object readLock = new Object();
    private boolean reading;   // guarded by readLock
    private boolean leave;
    private Instant lastCtrlC = Instant.MIN;

    /**
     * @param inbox  stores typed lines, or keeps them in its spool while the file cannot be written
     * @param giveUp piped input: how long, at its end, to wait for lines still in the spool to be stored
     * @param more   the commands that show what is in the file (/notes, /log, …), registered after the REPL's own
     * @param piped  where piped input is read (not through the line editor), or null when a person types
     */
    public Repl(LineReader reader, java.io.Reader piped, JLineScreen screen, TickLoop loop, NoteSpool inbox,
                Describe describe, Duration giveUp, Controls controls, OpenQuestion question, EventRenderer renderer,
                List<SlashCommand> more, Clock clock) {
        this.reader = Objects.requireNonNull(reader, "reader");
        this.screen = Objects.requireNonNull(screen, "screen");
        this.question = Objects.requireNonNull(question, "question");
        this.controls = Objects.requireNonNull(controls, "controls");
        this.giveUp = Objects.requireNonNull(giveUp, "giveUp");
        this.interactive = piped == null;
        this.piped = piped == null ? null : new PipedLines(piped);
        this.loop = Objects.requireNonNull(loop, "loop");
        this.inbox = Objects.requireNonNull(inbox, "inbox");
        this.describe = Objects.requireNonNull(describe, "describe");
        this.renderer = Objects.requireNonNull(renderer, "renderer");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.status = new ReplStatus(loop, inbox, describe, controls, renderer, clock);
        registerOwnCommands();
        more.forEach(commands::add);
    }

    /** The registry (its completer goes to the line reader). */
    public SlashCommands commands() {
        return commands;
    }

    private void registerOwnCommands() {
        commands.add(new SlashCommand("/help", "", "this list", args -> help()))
                .add(new SlashCommand("/status", "", "state, tick, tokens, retry, LLM and file, on several lines",
                        args -> status.text()))
                .add(new SlashCommand("/verbose", "[quiet|normal|full]",
                        "how much of the machinery the transcript shows (thoughts, command results)", this::verbose,
                        () -> List.of("quiet", "normal", "full")))
                .add(new SlashCommand("/halt", "[why]", "stop the agent now; it stays stopped until /unlock",
                        controls::halt))
                .add(new SlashCommand("/unlock", "[why]", "let a stopped agent think again", controls::unlock))
                .add(new SlashCommand("/drop", "", "forget the message a cancelled reply was answering", args -> drop()))
                .add(new SlashCommand("/clear", "", "clear the screen", args -> clear()))
                .add(new SlashCommand("/quit", "", "leave (Ctrl-D too); a reply in flight is cut short and kept",
                        args -> {
                            leave = true;
                            return "";
                        }))
                .alias("/exit", "/quit");
    }

    /**
     * Reads until /quit, Ctrl-D, two Ctrl-C, end of input, or the loop ending by itself (the loop must be
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

    /** Why a read ended without a line. */
    private enum Interrupted { LINE, CTRL_C, END }

    private String carried = null;   // a half-typed line kept across a Ctrl-C
    private String lastRead;

    private void readLines() {
        while (!leave) {
            Interrupted how = read(PROMPT);
            if (how == Interrupted.END) return;
            if (how == Interrupted.CTRL_C) {
                if (ctrlC()) return;
                continue;
            }
            String line = Printable.text(lastRead);
            if (line.strip().startsWith(BLOCK)) {
                line = block(line.strip());
                if (line == null) return;
            }
            String text = line.strip();
            if (text.isEmpty()) continue;
            if (SlashCommands.isCommand(text)) {
                String shown = commands.run(text);
                // what the person asked for: piped, on stdout with the answers
                if (!shown.isEmpty()) screen.answer(new AttributedString(EventRenderer.printable(shown)));
                continue;
            }
            if (question.offer(text)) continue;   // it answered the agent's question about a command
            submit(text);
        }
    }

    /**
     * Reads one line into {@link #lastRead} with {@code base} as the prompt proper (under the live region), starting
     * from the line a Ctrl-C kept.
     */
    private Interrupted read(String base) {
        try {
            synchronized (readLock) {
                if (loop.ended() != null) return Interrupted.END;
                reading = true;
            }
            try {
                if (!interactive) return readPiped();
                String start = carried;
                carried = null;
                lastRead = reader.readLine(screen.reading(base), null, (MaskingCallback) null, start);
                return Interrupted.LINE;
            } finally {
                synchronized (readLock) {
                    reading = false;
                }
                if (loop.ended() != null) Thread.interrupted();   // clear the wake-up, not someone else's
            }
        } catch (UserInterruptException e) {
            if (loop.ended() != null) return Interrupted.END;
            carried = e.getPartialLine();
            return Interrupted.CTRL_C;
        } catch (EndOfFileException e) {
            return Interrupted.END;
        } catch (java.io.IOError e) {
            if (loop.ended() != null) return Interrupted.END;   // interrupted because the loop ended
            throw e;
        }
    }

    /** A piped line (not through the line editor: see {@link PipedLines}); one over the limit is said and skipped. */
    private Interrupted readPiped() {
        try {
            while (true) {
                PipedLines.Line line = piped.next();
                if (line == null) return Interrupted.END;
                if (!line.refused()) {
                    lastRead = line.text();
                    return Interrupted.LINE;
                }
                say(String.format("a line of %,d characters was not sent: one message holds at most %,d; put it in a"
                        + " file and ask the agent to read that file", line.refusedLength(), PipedLines.MAX_CHARS));
            }
        } catch (java.io.IOException e) {
            if (loop.ended() == null) say("reading the piped input failed (" + e.getMessage() + "): no more lines are read");
            return Interrupted.END;
        }
    }

    /**
     * Ctrl-C: cancels the reply in flight and keeps the typed line; with nothing in flight it clears a typed line,
     * and at an empty prompt a second one within 2 s leaves (returns true).
     */
    private boolean ctrlC() {
        Optional<String> cancelled = renderer.cancel(loop.cycle()::cancelInFlight);
        if (cancelled.isPresent()) {
            say(cancelled.get() + "; your message stays unread (/drop forgets it)");
            return false;
        }
        Instant now = clock.instant();
        if (carried != null && !carried.isEmpty()) {
            carried = null;
            lastCtrlC = Instant.MIN;
            return false;
        }
        carried = null;
        if (Duration.between(lastCtrlC, now).compareTo(DOUBLE_CTRL_C) <= 0) return true;
        lastCtrlC = now;
        say("(Ctrl-C again within 2 s, Ctrl-D or /quit to leave)");
        return false;
    }

    /**
     * A {@code """} block: the text after the opening quotes and every line up to one ending in {@code """}, joined
     * with newlines; null when input ended before it closed (what was typed is still sent) or when Ctrl-C dropped it.
     */
    private String block(String first) {
        StringBuilder sb = new StringBuilder();
        String rest = first.substring(BLOCK.length());
        if (rest.endsWith(BLOCK) && rest.length() >= BLOCK.length()) return rest.substring(0, rest.length() - BLOCK.length());
        sb.append(rest);
        boolean firstLine = rest.isBlank();
        while (true) {
            Interrupted how = read(MORE);
            if (how == Interrupted.CTRL_C) {
                carried = null;
                say("(the block was dropped)");
                return "";
            }
            if (how == Interrupted.END) {
                if (!sb.toString().isBlank()) submit(sb.toString().strip());
                return null;
            }
            String line = Printable.text(lastRead);
            boolean end = line.stripTrailing().endsWith(BLOCK);
            if (end) line = line.stripTrailing().substring(0, line.stripTrailing().length() - BLOCK.length());
            if (!firstLine || !sb.isEmpty()) sb.append('\n');
            firstLine = false;
            sb.append(line);
            if (end) return sb.toString();
        }
    }

    /** A typed line becomes a note now, or waits in the spool until the file takes writes again: never lost. */
    private void submit(String text) {
        try {
            NoteSpool.Submitted s = inbox.submit(text, "user", 0, null);
            if (s.stored()) {
                loop.wake();
                if (!controls.active()) {
                    say("locked: " + controls.safety() + "; your message is kept and seen after /unlock (or agent unlock)");
                }
            } else {
                say("your message is kept " + (s.inMemory() ? "in memory" : "in " + inbox.file().getFileName())
                        + " (" + s.problem() + ") and stored as soon as the file takes writes; /status shows what waits");
            }
        } catch (UncheckedIOException e) {
            say("your message could not be kept: " + e.getMessage());
        }
    }

    String help() {
        return "Type a message and press Enter: it goes to the agent, and the agent answers above the prompt.\n"
                + commands.help() + "\n"
                + "  Tab            complete a command; Up/Down and Ctrl-R search what you typed before\n"
                + "  Alt-Enter      a new line inside the message; or type \"\"\" , the lines, and \"\"\" to end them\n"
                + "  Ctrl-C         cancel the reply in flight (your typed line stays); twice at an empty prompt to leave";
    }

    private String verbose(String args) {
        if (args.isEmpty()) return "verbosity: " + renderer.verbosity().word() + " (/verbose quiet|normal|full)";
        return Verbosity.parse(args).map(v -> {
            renderer.verbosity(v);
            return "verbosity: " + v.word();
        }).orElse("/verbose takes quiet, normal or full, e.g. /verbose normal");
    }

    private String drop() {
        boolean cancelled = loop.cycle().cancelInFlight();
        int n = controls.dropUnread();
        if (n == 0) return cancelled ? "cancelled the reply in flight; no unread message to drop" : "no unread message to drop";
        return (cancelled ? "cancelled the reply in flight; " : "") + "dropped " + n
                + (n == 1 ? " message: the agent will not answer it" : " messages: the agent will not answer them");
    }

    private String clear() {
        if (!screen.hasLiveRegion()) return "";
        reader.getTerminal().puts(InfoCmp.Capability.clear_screen);
        reader.getTerminal().flush();
        return "";
    }

    private void say(String text) {
        screen.above(new AttributedString(EventRenderer.printable(text)));
    }
}
