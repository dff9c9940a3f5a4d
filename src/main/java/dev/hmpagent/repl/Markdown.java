package dev.hmpagent.repl;

import org.commonmark.node.BlockQuote;
import org.commonmark.node.BulletList;
import org.commonmark.node.Code;
import org.commonmark.node.Emphasis;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.HardLineBreak;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.IndentedCodeBlock;
import org.commonmark.node.Link;
import org.commonmark.node.LinkReferenceDefinition;
import org.commonmark.node.ListBlock;
import org.commonmark.node.ListItem;
import org.commonmark.node.Node;
import org.commonmark.node.OrderedList;
import org.commonmark.node.SoftLineBreak;
import org.commonmark.node.StrongEmphasis;
import org.commonmark.node.Text;
import org.commonmark.node.ThematicBreak;
import org.commonmark.parser.Parser;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

/**
 * The agent's markdown as a terminal shows it: commonmark-java parses it (the CommonMark spec, so a stray "*" or an
 * unclosed fence reads as the spec says, not as a hand-written pattern guesses) and its tree becomes one attributed
 * string: headings bold, emphasis italic, strong bold, inline code and code blocks in colour (blocks indented),
 * bullets "•", numbered items their numbers, quotes under "│ ", links their text and address. The markers themselves
 * are dropped: the styles say what they said. Only for a terminal with styles; without them (--no-color, NO_COLOR)
 * the text is shown as the model wrote it, markdown being made to read well as plain text.
 */
final class Markdown {
    private static final Parser PARSER = Parser.builder().build();
    private static final AttributedStyle CODE = AttributedStyle.DEFAULT.foreground(AttributedStyle.YELLOW);
    private static final AttributedStyle BLOCK = AttributedStyle.DEFAULT.foreground(AttributedStyle.GREEN);
    private static final AttributedStyle FAINT = AttributedStyle.DEFAULT.faint();

    private final AttributedStringBuilder out = new AttributedStringBuilder();

    private Markdown() { }

    /** {@code text} (already made printable) rendered; blocks apart by one blank line, no trailing newline. */
    static AttributedString render(String text) {
        Markdown m = new Markdown();
        m.blocks(PARSER.parse(text), "\n\n");
        AttributedString s = m.out.toAttributedString();
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == '\n') end--;
        return s.subSequence(0, end);
    }

    /** The children of {@code parent}, block by block, {@code gap} between two. */
    private void blocks(Node parent, String gap) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNext()) {
            block(n);
            if (n.getNext() != null) out.append(gap);
        }
    }

    private void block(Node n) {
        if (n instanceof Heading) {
            styled(AttributedStyle::bold, () -> inlines(n));
        } else if (n instanceof FencedCodeBlock f) {
            code(f.getLiteral());
        } else if (n instanceof IndentedCodeBlock c) {
            code(c.getLiteral());
        } else if (n instanceof ListBlock list) {
            items(list);
        } else if (n instanceof BlockQuote) {
            appendPrefixed(nested(n, "\n\n"), "│ ", "│ ");
        } else if (n instanceof ThematicBreak) {
            out.styled(FAINT, "──────────");
        } else if (n instanceof HtmlBlock h) {
            out.append(strip(h.getLiteral()));
        } else if (n instanceof LinkReferenceDefinition d) {
            out.append("[" + d.getLabel() + "]: ").styled(FAINT, d.getDestination());   // the parser keeps it apart
        } else {
            inlines(n);   // a paragraph, or a block this renderer does not know: its text
        }
    }

    /** A code block's lines, indented two columns, in the code colour. */
    private void code(String literal) {
        String[] lines = strip(literal).split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (i > 0) out.append('\n');
            out.append("  ").styled(BLOCK, lines[i]);
        }
    }

    /** A list's items, each under its bullet or number; the item's further lines hang under its text. */
    private void items(ListBlock list) {
        int number = list instanceof OrderedList o && o.getMarkerStartNumber() != null ? o.getMarkerStartNumber() : 1;
        String gap = list.isTight() ? "\n" : "\n\n";
        for (Node item = list.getFirstChild(); item != null; item = item.getNext()) {
            String mark = list instanceof OrderedList ? (number++) + ". " : "• ";
            if (item instanceof ListItem) {
                appendHanging(nested(item, gap), mark);
            }
            if (item.getNext() != null) out.append(gap);
        }
    }

    /** {@code s} after {@code mark}, its further lines indented by the mark's width. */
    private void appendHanging(AttributedString s, String mark) {
        appendPrefixed(s, mark, " ".repeat(mark.length()));
    }

    /** The blocks of {@code parent} rendered on their own, to be indented as a whole. */
    private static AttributedString nested(Node parent, String gap) {
        Markdown inner = new Markdown();
        inner.blocks(parent, gap);
        return inner.out.toAttributedString();
    }

    private void appendPrefixed(AttributedString s, String first, String rest) {
        String plain = s.toString();
        int start = 0;
        boolean firstLine = true;
        while (true) {
            int nl = plain.indexOf('\n', start);
            int end = nl < 0 ? plain.length() : nl;
            out.append(firstLine ? first : (end > start ? rest : rest.stripTrailing()));
            out.append(s.subSequence(start, end));
            if (nl < 0) return;
            out.append('\n');
            start = nl + 1;
            firstLine = false;
        }
    }

    private void inlines(Node parent) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNext()) inline(n);
    }

    private void inline(Node n) {
        if (n instanceof Text t) {
            out.append(t.getLiteral());
        } else if (n instanceof Code c) {
            out.styled(CODE, c.getLiteral());
        } else if (n instanceof Emphasis) {
            styled(AttributedStyle::italic, () -> inlines(n));
        } else if (n instanceof StrongEmphasis) {
            styled(AttributedStyle::bold, () -> inlines(n));
        } else if (n instanceof Link || n instanceof Image) {
            String destination = n instanceof Link l ? l.getDestination() : ((Image) n).getDestination();
            int before = out.length();
            styled(AttributedStyle::underline, () -> inlines(n));
            String label = out.toAttributedString().subSequence(before, out.length()).toString();
            if (!label.equals(destination)) out.styled(FAINT, " (" + destination + ")");
        } else if (n instanceof SoftLineBreak || n instanceof HardLineBreak) {
            out.append('\n');   // the model's line breaks are meant: a list of lines, an address
        } else if (n instanceof HtmlInline h) {
            out.append(h.getLiteral());
        } else {
            inlines(n);   // a node this renderer does not know: its text
        }
    }

    /** Runs {@code body} with the current style changed by {@code add} (bold, italic: nested emphasis adds up). */
    private void styled(java.util.function.UnaryOperator<AttributedStyle> add, Runnable body) {
        AttributedStyle was = out.style();
        out.style(add.apply(was));
        body.run();
        out.style(was);
    }

    private static String strip(String s) {
        return s.endsWith("\n") ? s.substring(0, s.length() - 1) : s;
    }
}
