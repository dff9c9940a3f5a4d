package dev.hmpagent.repl;

import dev.hmpagent.event.AgentEvent;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

/**
 * An answer to the person as the transcript shows it: "agent> " (or "agent (thought)> " for a reply's prose) and the
 * text, its further lines under the text, clipped past {@value EventRenderer#MAX_MESSAGE_CHARS} characters or
 * {@value EventRenderer#MAX_MESSAGE_LINES} lines with the command that prints all of it; on a terminal with styles,
 * its markdown rendered ({@link Markdown}).
 */
final class AnswerText {
    private static final AttributedStyle AGENT = AttributedStyle.BOLD.foreground(AttributedStyle.CYAN);
    private static final AttributedStyle PROSE = AttributedStyle.DEFAULT.italic().foreground(AttributedStyle.CYAN);

    private AnswerText() { }

    static AttributedString of(AgentEvent.MessageToUser m, String dbPath, boolean markdown) {
        String query = "SELECT text FROM notes WHERE "
                + (m.noteId() > 0 ? "id = " + m.noteId() : "source = 'llm' AND tick_id = " + m.tickId());
        return marked(AGENT, "agent> ", body(Printable.text(m.text()), query, dbPath, markdown));
    }

    static AttributedString of(AgentEvent.ProseAnswer p, String dbPath, boolean markdown) {
        String query = "SELECT content FROM llm_recent_responses WHERE tick_id = " + p.tickId();
        return marked(PROSE, EventRenderer.PROSE_PREFIX, body(Printable.text(p.text()), query, dbPath, markdown));
    }

    /** {@code mark}, then {@code body} with each further line indented by the mark's width. */
    private static AttributedString marked(AttributedStyle style, String mark, AttributedString body) {
        AttributedStringBuilder sb = new AttributedStringBuilder().styled(style, mark);
        String plain = body.toString();
        String pad = " ".repeat(mark.length());
        int start = 0;
        while (true) {
            int nl = plain.indexOf('\n', start);
            int end = nl < 0 ? plain.length() : nl;
            if (start > 0 && end > start) sb.append(pad);
            sb.append(body.subSequence(start, end));
            if (nl < 0) return sb.toAttributedString();
            sb.append('\n');
            start = nl + 1;
        }
    }

    /** The text (its markdown rendered when asked), clipped; {@code query} prints all of it from the file. */
    private static AttributedString body(String text, String query, String dbPath, boolean markdown) {
        int cut = clipAt(text);
        String shown = text.substring(0, cut);
        AttributedStringBuilder sb = new AttributedStringBuilder()
                .append(markdown ? Markdown.render(shown) : new AttributedString(shown));
        if (cut < text.length()) {
            sb.append("\n… (" + (text.length() - cut) + " more characters; all of it: sqlite3 '"
                    + dbPath.replace("'", "'\\''") + "' \"" + query + "\")");
        }
        return sb.toAttributedString();
    }

    /** Where a message is cut: its length when it is within both limits. */
    private static int clipAt(String text) {
        int cut = Math.min(text.length(), EventRenderer.MAX_MESSAGE_CHARS);
        int lines = 0;
        for (int i = 0; i < cut; i++) {
            if (text.charAt(i) == '\n' && ++lines >= EventRenderer.MAX_MESSAGE_LINES) {
                cut = i;
                break;
            }
        }
        if (cut < text.length() && cut > 0 && Character.isHighSurrogate(text.charAt(cut - 1))) cut--;
        return cut;
    }
}
