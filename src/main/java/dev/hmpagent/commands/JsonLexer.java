package dev.hmpagent.commands;

/**
 * Reads text the way the command-block splitter sees JSON: inside an open bracket a {@code "} opens a
 * string, a backslash escapes the next character inside it, and a {@code "} or a raw line break ends it
 * (JSON strings cannot hold a raw line break, so one bad quote cannot swallow the lines after it). Brackets
 * inside a string are text. Outside every bracket a {@code "} is prose, not a string, so a stray quote in
 * text before a command does not hide the command.
 *
 * <p>Because a line break always ends a string, every line starts outside a string, whatever came before.
 * One instance reads one text from its start, character by character; it is not shared.
 */
final class JsonLexer {

    private boolean inString;
    private boolean escaped;

    /** Whether the characters read so far end inside a JSON string. */
    boolean inString() {
        return inString;
    }

    /**
     * Reads the next character; returns it when it is a bracket ({@code {}[]}) outside a string, else 0.
     * {@code nested} says whether some bracket is open at this point.
     */
    char read(char c, boolean nested) {
        if (inString) {
            if (c == '\n') {
                inString = false;
                escaped = false;
            } else if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == '"') {
                inString = false;
            }
            return 0;
        }
        if (c == '"') {
            inString = nested;
            return 0;
        }
        return c == '{' || c == '}' || c == '[' || c == ']' ? c : 0;
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
