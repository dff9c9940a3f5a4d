package dev.hmpagent.commands;

/**
 * Reads text the way the command-block splitter sees the lenient JSON it accepts (the same leniency the
 * reader gives Jackson: single-quoted strings and {@code //} / {@code /* *}{@code /} comments), so the splitter
 * cuts where Jackson would:
 * <ul>
 * <li>Inside an open bracket a {@code "} or a {@code '} opens a string that only the same quote closes; a
 * backslash escapes the next character inside it, and a raw line break ends it too (a JSON string cannot hold
 * one, so one bad quote cannot swallow the lines after it). Outside every bracket a quote is prose, not a
 * string, so a stray quote or an apostrophe in text before a command does not hide the command.</li>
 * <li>Outside strings, {@code //} opens a comment that ends at the line break, and {@code /*} one that ends at
 * the next {@code *}{@code /}, line breaks included (a command commented out over several lines never runs;
 * a {@code /*} never closed comments out the rest, as it does for Jackson). Outside every bracket a comment
 * starts only at the start of a line (after blanks) or after a closing bracket on its line (blanks and commas
 * between), as in {@code - {"type": "x"}  // why}, so a path like {@code src/*.java} or a URL in prose before
 * a command does not hide it.</li>
 * <li>Brackets inside a string or a comment are text.</li>
 * </ul>
 *
 * <p>So every line starts outside a string, though not always outside a comment. One instance reads one text
 * from its start, character by character; it is not shared.
 */
final class JsonLexer {

    /** The quote that opened the string being read, or 0 outside strings. */
    private char quote;
    private boolean escaped;
    /** {@code '/'} inside a line comment, {@code '*'} inside a block comment, else 0. */
    private char comment;
    /** Inside a block comment: the last character read was a {@code *}. */
    private boolean star;
    /** The last character read was a {@code /} that a {@code /} or {@code *} would turn into a comment. */
    private boolean slash;
    /** Only blanks were read since the last line break (or the start). */
    private boolean lineStart = true;
    /** Only blanks and commas were read on this line since a closing bracket. */
    private boolean afterCloser;
    /** Some string was ended by a raw line break rather than by its quote. */
    private boolean brokenString;

    /** Whether the characters read so far end inside a JSON string. */
    boolean inString() {
        return quote != 0;
    }

    /** Whether some string read so far was ended by a raw line break rather than by its quote. */
    boolean brokeAString() {
        return brokenString;
    }

    /** Whether the characters read so far end inside a comment. */
    boolean inComment() {
        return comment != 0;
    }

    /**
     * Reads the next character; returns it when it is a bracket ({@code {}[]}) outside strings and comments,
     * else 0. {@code nested} says whether some bracket is open at this point.
     */
    char read(char c, boolean nested) {
        if (quote != 0) {
            readInString(c);
            return 0;
        }
        if (comment != 0) {
            readInComment(c);
            return 0;
        }
        boolean slashBefore = slash;
        slash = false;
        if (slashBefore && (c == '/' || c == '*')) {
            comment = c;
            star = false;
            return 0;
        }
        boolean atLineStart = lineStart;
        boolean pastCloser = afterCloser;
        if (c == '\n') lineStart = true;
        else if (c != ' ' && c != '\t') lineStart = false;
        afterCloser = c == '}' || c == ']' || (pastCloser && (c == ' ' || c == '\t' || c == ','));
        if (c == '/') {
            slash = nested || atLineStart || pastCloser;
            return 0;
        }
        if (c == '"' || c == '\'') {
            if (nested) quote = c;
            return 0;
        }
        return c == '{' || c == '}' || c == '[' || c == ']' ? c : 0;
    }

    private void readInString(char c) {
        if (c == '\n') {
            quote = 0;
            escaped = false;
            lineStart = true;
            brokenString = true;
        } else if (escaped) {
            escaped = false;
        } else if (c == '\\') {
            escaped = true;
        } else if (c == quote) {
            quote = 0;
        }
    }

    private void readInComment(char c) {
        if (comment == '/') {
            if (c == '\n') {
                comment = 0;
                lineStart = true;
            }
            return;
        }
        if (star && c == '/') comment = 0;
        star = c == '*';
    }

    /**
     * Nesting depth after reading {@code c} when it was {@code depth} before: one deeper for an opening
     * bracket, one shallower for a closing one, never below 0 (a stray closer closes nothing).
     */
    int depthAfter(char c, int depth) {
        return switch (read(c, depth > 0)) {
            case '{', '[' -> depth + 1;
            case '}', ']' -> Math.max(0, depth - 1);
            default -> depth;
        };
    }

    /**
     * The deepest nesting of {@code {} and {@code [} in {@code s[from, to)}, read from {@code from} as
     * outside a string; braces and brackets count alike.
     */
    static int maxDepth(String s, int from, int to) {
        JsonLexer lexer = new JsonLexer();
        int depth = 0;
        int max = 0;
        for (int i = from; i < to; i++) {
            depth = lexer.depthAfter(s.charAt(i), depth);
            max = Math.max(max, depth);
        }
        return max;
    }
}
