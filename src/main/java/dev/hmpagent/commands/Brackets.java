package dev.hmpagent.commands;

import java.util.Arrays;

/**
 * Where each {@code {} and {@code [} of one text closes, and where each comment ends, found in one pass with
 * {@link JsonLexer} (so brackets inside JSON strings and comments are text). Braces and square brackets are matched separately: a brace
 * closes at the first {@code }} that brings the brace count back to where it was, whatever square
 * brackets lie between, and the other way round.
 *
 * <p>For an opener at a position where reading from the start of the text is outside a string, this is
 * the same answer as counting from the opener itself: from there on both read the text alike (inside the
 * opener something is always open, so both track strings).
 */
final class Brackets {

    private static final int NOT_AN_OPENER = 0;
    private static final int NEVER_CLOSED = -1;

    /** Per character: index just past the matching closer, {@link #NEVER_CLOSED}, or {@link #NOT_AN_OPENER}. */
    private final int[] ends;
    /** Per character that starts a comment: index just past the comment; null when the text has none. */
    private final int[] commentEnds;
    private final boolean brokenString;

    private Brackets(int[] ends, int[] commentEnds, boolean brokenString) {
        this.ends = ends;
        this.commentEnds = commentEnds;
        this.brokenString = brokenString;
    }

    static Brackets of(String s) {
        int[] ends = new int[s.length()];
        IntStack braces = new IntStack();
        IntStack squares = new IntStack();
        int[] commentEnds = null;
        int commentStart = -1;
        JsonLexer lexer = new JsonLexer();
        for (int i = 0; i < s.length(); i++) {
            boolean wasInComment = lexer.inComment();
            switch (lexer.read(s.charAt(i), !braces.isEmpty() || !squares.isEmpty())) {
                case '{' -> open(ends, braces, i);
                case '[' -> open(ends, squares, i);
                case '}' -> close(ends, braces, i);
                case ']' -> close(ends, squares, i);
                default -> { }
            }
            if (wasInComment == lexer.inComment()) continue;
            if (commentEnds == null) commentEnds = new int[s.length()];
            if (wasInComment) commentEnds[commentStart] = s.charAt(i) == '\n' ? i : i + 1;
            else commentStart = i - 1; // the comment's first '/' was read just before
        }
        if (lexer.inComment()) commentEnds[commentStart] = s.length();
        return new Brackets(ends, commentEnds, lexer.brokeAString());
    }

    private static void open(int[] ends, IntStack stack, int i) {
        ends[i] = NEVER_CLOSED;
        stack.push(i);
    }

    private static void close(int[] ends, IntStack stack, int i) {
        if (!stack.isEmpty()) ends[stack.pop()] = i + 1;
    }

    /** True when {@code s.charAt(i)} is a {@code {} or {@code [} outside a JSON string. */
    boolean isOpener(int i) {
        return ends[i] != NOT_AN_OPENER;
    }

    /** Whether a raw line break ended some string of the text (a multi-line string, or a lost quote). */
    boolean brokenString() {
        return brokenString;
    }

    /**
     * Index just past the comment that starts at {@code i} (a line comment ends before its line break), or
     * {@code i} when none starts there.
     */
    int commentEnd(int i) {
        return commentEnds == null || commentEnds[i] == 0 ? i : commentEnds[i];
    }

    /** Index just past the closer of the opener at {@code i}, or -1 when it is never closed. */
    int end(int i) {
        if (!isOpener(i)) throw new IllegalArgumentException("no opening bracket at " + i);
        return ends[i];
    }

    /** A growable stack of ints, so deep nesting costs neither boxing nor call-stack depth. */
    private static final class IntStack {
        private int[] items = new int[16];
        private int size;

        void push(int value) {
            if (size == items.length) items = Arrays.copyOf(items, size * 2);
            items[size++] = value;
        }

        int pop() { return items[--size]; }

        boolean isEmpty() { return size == 0; }
    }
}
