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

    private final LineReader reader;

    public EventRenderer(LineReader reader) {
        this.reader = Objects.requireNonNull(reader, "reader");
    }

    @Override
    public void emit(AgentEvent event) {
        reader.printAbove(render(event).toAnsi(reader.getTerminal()));
    }

    static AttributedString render(AgentEvent event) {
        AttributedStringBuilder sb = new AttributedStringBuilder();
        if (event instanceof AgentEvent.MessageToUser m) {
            sb.styled(AGENT, "agent> ").append(printable(m.text()));
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
