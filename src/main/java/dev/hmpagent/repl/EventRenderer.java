package dev.hmpagent.repl;

import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import java.util.Objects;
import org.jline.reader.LineReader;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

/**
 * Shows agent events above the prompt with {@link LineReader#printAbove}, so a line being typed
 * is redrawn, not clobbered. Colours degrade to plain text on a dumb terminal.
 */
public final class EventRenderer implements EventSink {
    static final int MAX_THOUGHT_CHARS = 600;
    private static final AttributedStyle DIM = AttributedStyle.DEFAULT.faint();
    private static final AttributedStyle AGENT = AttributedStyle.BOLD.foreground(AttributedStyle.CYAN);
    private static final AttributedStyle ERROR = AttributedStyle.DEFAULT.foreground(AttributedStyle.RED);
    private static final AttributedStyle WARN = AttributedStyle.DEFAULT.foreground(AttributedStyle.YELLOW);

    private static final java.util.regex.Pattern CONTROL = java.util.regex.Pattern.compile("[\\p{Cc}&&[^\\n\\t]]");

    /** Longest message to the user shown whole; a longer one is clipped with the command that shows the rest. */
    static final int MAX_MESSAGE_CHARS = 4_096;
    /** Most lines of one message shown. */
    static final int MAX_MESSAGE_LINES = 200;

    private final LineReader reader;
    private final String dbPath;

    /** @param dbPath the database file, named in the command that shows a clipped message whole */
    public EventRenderer(LineReader reader, String dbPath) {
        this.reader = Objects.requireNonNull(reader, "reader");
        this.dbPath = Objects.requireNonNull(dbPath, "dbPath");
    }

    @Override
    public void emit(AgentEvent event) {
        if (event instanceof AgentEvent.TickDone || event instanceof AgentEvent.NoOp) return;   // the REPL shows what a tick did, not its bookkeeping
        reader.printAbove(render(event, dbPath).toAnsi(reader.getTerminal()));
    }

    static AttributedString render(AgentEvent event, String dbPath) {
        AttributedStringBuilder sb = new AttributedStringBuilder();
        if (event instanceof AgentEvent.MessageToUser m) {
            sb.styled(AGENT, "agent> ").append(message(printable(m.text()), m, dbPath));
        } else if (event instanceof AgentEvent.Thought t) {
            sb.styled(DIM, "  (thought" + (t.interrupted() ? ", interrupted" : "") + ") " + clip(t.text()));
        } else if (event instanceof AgentEvent.CommandDone c) {
            AttributedStyle style = switch (c.status()) {
                case "ok", "close" -> DIM;
                case "warning" -> WARN;
                default -> ERROR;
            };
            sb.styled(style, "  [" + c.type() + " " + c.cmdId() + "] " + c.status() + ": " + clip(c.result()));
        } else if (event instanceof AgentEvent.Problem p) {
            sb.styled(ERROR, "! " + printable(p.text()));
        } else if (event instanceof AgentEvent.Info i) {
            sb.styled(DIM, "· " + printable(i.text()));
        }
        return sb.toAttributedString();
    }

    /**
     * A message whole up to {@value #MAX_MESSAGE_CHARS} characters and {@value #MAX_MESSAGE_LINES}
     * lines; beyond, the start of it and the exact command that prints all of it.
     */
    static String message(String text, AgentEvent.MessageToUser m, String dbPath) {
        int cut = Math.min(text.length(), MAX_MESSAGE_CHARS);
        int lines = 0;
        for (int i = 0; i < cut; i++) {
            if (text.charAt(i) == '\n' && ++lines >= MAX_MESSAGE_LINES) {
                cut = i;
                break;
            }
        }
        if (cut >= text.length()) return text;
        if (cut > 0 && Character.isHighSurrogate(text.charAt(cut - 1))) cut--;
        return text.substring(0, cut) + "\n… (" + (text.length() - cut) + " more characters; all of it: sqlite3 '"
                + dbPath.replace("'", "'\\''") + "' \"SELECT text FROM notes WHERE "
                + (m.noteId() > 0 ? "id = " + m.noteId() : "source = 'llm' AND tick_id = " + m.tickId()) + "\")";
    }

    private static String clip(String s) {
        String one = printable(s).strip();
        return one.length() <= MAX_THOUGHT_CHARS ? one : one.substring(0, MAX_THOUGHT_CHARS) + "…";
    }

    /**
     * Text from the model or a server with control characters removed (newlines and tabs kept), so
     * a reply cannot send escape sequences to the user's terminal (titles, clipboard, hidden text).
     */
    static String printable(String s) {
        return CONTROL.matcher(s).replaceAll("");
    }
}
