package dev.hmpagent.repl;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.WCWidth;

/**
 * Lines broken at word boundaries to fit the terminal, as a person reads them: the terminal itself breaks a long line
 * at its last column, mid-word, and the next row starts at column 0 under the "agent> " it belongs to. Each line
 * keeps its own hanging indent: the width of its leading spaces and its mark ("agent> ", "! ", "· ", "• ", "1. "),
 * so a wrapped message stays under its text. A word longer than a whole row is cut where the row ends.
 */
final class Wrap {
    /** Leading spaces, then one mark: the agent's prompts, a one- or two-character bullet, a list number. */
    private static final Pattern MARK = Pattern.compile(
            "^ *(?:agent(?: \\(thought\\))?> |[!·•│>*-] |\\d{1,3}[.)] )?");

    private Wrap() { }

    /** {@code text} with line breaks added so that no row is wider than {@code width} columns. */
    static AttributedString lines(AttributedString text, int width) {
        if (width < 8) return text;
        AttributedStringBuilder out = new AttributedStringBuilder();
        String plain = text.toString();
        int start = 0;
        while (true) {
            int nl = plain.indexOf('\n', start);
            int end = nl < 0 ? plain.length() : nl;
            line(text.subSequence(start, end), width, out);
            if (nl < 0) break;
            out.append('\n');
            start = nl + 1;
        }
        return out.toAttributedString();
    }

    /** Plain {@code text} as the rows {@link #lines} breaks it into. */
    static List<String> rows(String text, int width) {
        return List.of(lines(new AttributedString(text), width).toString().split("\n", -1));
    }

    /** One line (no newline in it) broken into rows, each after the first starting at the line's hanging indent. */
    private static void line(AttributedString line, int width, AttributedStringBuilder out) {
        String plain = line.toString();
        Matcher m = MARK.matcher(plain);
        int hang = m.find() ? columns(plain, 0, m.end()) : 0;
        if (hang > width / 2) hang = 0;   // a deep indent would leave no room for the words
        int from = 0;
        boolean first = true;
        while (from < plain.length()) {
            int room = first ? width : width - hang;
            int cut = cut(plain, from, room);
            if (!first) out.append(" ".repeat(hang));
            out.append(line.subSequence(from, trimEnd(plain, from, cut)));
            from = cut;
            while (from < plain.length() && plain.charAt(from) == ' ') from++;   // the break eats the spaces
            if (from < plain.length()) out.append('\n');
            first = false;
        }
    }

    /**
     * Where the row starting at {@code from} ends: the whole rest when it fits, else after the last space that
     * leaves the row within {@code room} columns, else (one word wider than the row) at {@code room} columns.
     */
    private static int cut(String s, int from, int room) {
        int cols = 0;
        int lastSpace = -1;
        int i = from;
        while (i < s.length()) {
            int cp = s.codePointAt(i);
            int w = Math.max(0, WCWidth.wcwidth(cp));
            if (cols + w > room) break;
            cols += w;
            if (cp == ' ') lastSpace = i;
            i += Character.charCount(cp);
        }
        if (i >= s.length()) return s.length();
        if (s.charAt(i) == ' ') return i;
        if (lastSpace > from && !s.substring(from, lastSpace).isBlank()) return lastSpace;
        return i == from ? from + Character.charCount(s.codePointAt(from)) : i;
    }

    private static int trimEnd(String s, int from, int to) {
        int end = to;
        while (end > from && s.charAt(end - 1) == ' ') end--;
        return end == from ? to : end;
    }

    /** The columns {@code s} takes from {@code from} to {@code to}. */
    static int columns(String s, int from, int to) {
        int cols = 0;
        for (int i = from; i < to; ) {
            int cp = s.codePointAt(i);
            cols += Math.max(0, WCWidth.wcwidth(cp));
            i += Character.charCount(cp);
        }
        return cols;
    }
}
