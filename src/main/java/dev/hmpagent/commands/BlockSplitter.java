package dev.hmpagent.commands;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Walks one piece of a command block and hands each top-level object, array and run of stray text to a
 * {@link BlockReader}. Iterative: the arrays being read are kept on a stack of their own, never on the call
 * stack, and nothing nested deeper than {@link #MAX_DEPTH} is descended into or given to Jackson; such a
 * piece is one error. Linear in the length of the text: every character is looked at a bounded number of
 * times (brackets are matched once, up front, by {@link Brackets}).
 *
 * <p>Every position the walk stops at lies outside strings and comments as {@link JsonLexer} reads the text
 * from its start (stray text ends at an opening bracket or a comment outside a string, objects and arrays end
 * after their closer, comments and {@link BlockNoise} after themselves, and a line always starts outside a
 * string), so the bracket table is valid wherever it is asked.
 */
final class BlockSplitter {

    /** Deepest nesting of braces and brackets read: a command array, a command, its args and 61 more. */
    static final int MAX_DEPTH = 64;

    private static final String STRAY = "text in the command block is not JSON and was ignored: put only JSON"
            + " command objects between \"# Commands:\" and \"# End commands\"";

    /** An array being read: where it opens, its ']' (-1: never closed), whether its depth is known fine. */
    private record OpenArray(int start, int closer, boolean depthChecked) { }

    private final String s;
    private final Brackets brackets;
    private final BlockNoise noise;
    private final BlockReader reader;
    private final Deque<OpenArray> open = new ArrayDeque<>();
    /** Characters looked at by the recovery scans, for tests that the walk stays linear. */
    private long steps;

    private BlockSplitter(String s, BlockReader reader) {
        this.s = s;
        this.brackets = Brackets.of(s);
        this.noise = new BlockNoise(s, brackets);
        this.reader = reader;
    }

    /**
     * Reads {@code s}, a run of objects and arrays with maybe some text between them, into {@code reader}; returns
     * how many characters the walk looked at (the bracket table's one pass included), for tests that it stays linear.
     */
    static long split(String s, BlockReader reader) {
        BlockSplitter splitter = new BlockSplitter(s, reader);
        // a string the lexer saw broken by a line break may be a multi-line string: Jackson reads the whole piece
        // when it is one valid value; else the walk cuts it as the lexer sees it
        if (splitter.brackets.brokenString() && reader.multiLine(s)) return s.length();
        splitter.run();
        return splitter.steps + s.length();
    }

    private void run() {
        int i = 0;
        OpenArray unclosed = null;
        int unclosedCount = 0;
        boolean lineStart = true;
        while (true) {
            steps++;
            int bound = bound();
            if (i >= bound) {
                if (open.isEmpty()) break;
                OpenArray done = open.pop();
                if (done.closer() >= 0) {
                    i = done.closer() + 1;
                } else {
                    unclosed = done;
                    unclosedCount++;
                }
                lineStart = false;
                continue;
            }
            char c = s.charAt(i);
            int skip = Character.isWhitespace(c) || c == ',' ? i + 1 : noise.end(i, lineStart);
            if (skip > i) {
                steps += skip - i;
                lineStart = c == '\n' || (lineStart && skip == i + 1 && c != ',');
                i = skip;
                continue;
            }
            lineStart = false;
            if (c == '{' && brackets.isOpener(i)) i = object(i, bound);
            else if (c == '[' && brackets.isOpener(i)) i = array(i, bound);
            else i = stray(i, bound);
        }
        if (unclosed != null) unclosedArrays(unclosed, unclosedCount);
    }

    /** Where the innermost array being read ends (its ']'), or the end of the text. */
    private int bound() {
        OpenArray inner = open.peek();
        return inner == null || inner.closer() < 0 ? s.length() : inner.closer();
    }

    /** True when the innermost array being read was found shallow enough as a whole. */
    private boolean depthChecked() {
        OpenArray inner = open.peek();
        return inner != null && inner.depthChecked();
    }

    /** Nesting depth of {@code s[from, to)} counted from the top of the block. */
    private int depth(int from, int to) {
        steps += to - from;
        return open.size() + JsonLexer.maxDepth(s, from, to);
    }

    private int object(int i, int bound) {
        int end = brackets.end(i);
        boolean closed = end > 0 && end <= bound;
        int next = nextItem(i, closed ? end : bound, !closed);
        if (next >= 0) {
            // a '{' no valid object can hold where it stands: this object lost a closer, and the next command
            // starts there; this one is an error, and the next is read on its own
            closed = false;
        }
        int stop = next >= 0 ? next : closed ? end : bound;
        int depth = depthChecked() ? 0 : depth(i, stop);
        if (depth > MAX_DEPTH) reader.tooDeep(depth, excerpt(i, stop));
        else if (closed) reader.object(s.substring(i, end));
        else reader.unterminated(excerpt(i, stop));
        return stop;
    }

    private int array(int i, int bound) {
        int end = brackets.end(i);
        boolean closed = end > 0; // an array inside a closed one closes before it: brackets are matched alike
        int stop = closed ? end : bound;
        boolean checked = depthChecked();
        if (!checked) {
            int depth = depth(i, stop);
            checked = depth <= MAX_DEPTH;
            // A closed outermost array that is too deep is still read command by command, so one deep
            // command does not take its siblings with it; anything else too deep is one error.
            if (!checked && !(closed && open.isEmpty())) {
                reader.blockError("the command block nests brackets " + depth + " deep (at most " + MAX_DEPTH
                        + " allowed): send a flat JSON array of command objects", excerpt(i, stop));
                return stop;
            }
        }
        if (closed && checked && open.isEmpty() && reader.wholeArray(s.substring(i, end))) return end;
        open.push(new OpenArray(i, closed ? end - 1 : -1, checked));
        return i + 1;
    }

    private int stray(int i, int bound) {
        int next = i + 1;
        while (next < bound && !brackets.isOpener(next) && brackets.commentEnd(next) == next) next++;
        steps += next - i;
        reader.blockError(STRAY, excerpt(i, next));
        return next;
    }

    private void unclosedArrays(OpenArray outermost, int count) {
        String message = count == 1 ? "the JSON array of commands is not closed: end the array with ']'"
                : count + " JSON arrays of commands are not closed: end each with ']'";
        reader.blockError(message, excerpt(outermost.start(), s.length()));
    }

    /**
     * Where the next command starts inside the object opening at {@code from}, or -1 when nothing in
     * {@code (from, to)} says one does. Two signs: a {@code {} that cannot belong to the object, one right after
     * a value ({@code ,}, {@code }} or {@code ]} before it) standing directly in an object (innermost open bracket
     * a brace) or after that object has closed, as in {@code {"type": "a", "args": {}, {"type": "b"}}: valid
     * JSON never has one, so this never cuts a command that parses; and, with {@code lines} (for an object
     * never closed), a later line that starts with a {@code {} indented no deeper than this object's own (a
     * sibling, not a nested object). One pass over {@code s[from, stop)}: the stack of open brackets costs O(1)
     * per character, amortised (a closer pops to its opener only when one is open), and the object's column is
     * found only at its first line break, so the scans back over one line never overlap.
     */
    private int nextItem(int from, int to, boolean lines) {
        int column = -1;
        JsonLexer lexer = new JsonLexer();
        OpenBrackets open = new OpenBrackets();
        char previous = 0;
        for (int j = from; j < to; j++) {
            char c = s.charAt(j);
            steps++;
            if (c == '\n' && lines) {
                if (column < 0) {
                    column = from - (s.lastIndexOf('\n', from - 1) + 1);
                    steps += column;
                }
                int sibling = siblingAfterLineBreak(j, to, column);
                if (sibling >= 0) return sibling;
            }
            boolean wasInText = lexer.inString() || lexer.inComment();
            switch (lexer.read(c, true)) {
                case '{' -> {
                    boolean afterValue = previous == ',' || previous == '}' || previous == ']';
                    if (j > from && afterValue && (open.none() || open.innermostIsBrace()) && brackets.isOpener(j)) {
                        return j;
                    }
                    open.push('{');
                }
                case '[' -> open.push('[');
                case '}' -> open.closeTo('{');
                case ']' -> open.closeTo('[');
                default -> { }
            }
            boolean code = !wasInText && !lexer.inString() && !lexer.inComment() && c != '/';
            if (code && !Character.isWhitespace(c)) previous = c;
        }
        return -1;
    }

    /**
     * Where a line that starts after the line break at {@code j} opens a sibling object: a {@code {} indented no
     * deeper than {@code column}; -1 when it does not.
     */
    private int siblingAfterLineBreak(int j, int to, int column) {
        int k = j + 1;
        while (k < to && k - (j + 1) <= column && (s.charAt(k) == ' ' || s.charAt(k) == '\t')) k++;
        return k < to && s.charAt(k) == '{' && k - (j + 1) <= column && brackets.isOpener(k) ? k : -1;
    }

    /** The brackets open at a point of the scan, innermost last; a closer with no opener of its kind is ignored. */
    private static final class OpenBrackets {
        private final StringBuilder stack = new StringBuilder();
        private int braces;
        private int squares;

        boolean none() {
            return stack.length() == 0;
        }

        boolean innermostIsBrace() {
            return stack.length() > 0 && stack.charAt(stack.length() - 1) == '{';
        }

        void push(char opener) {
            stack.append(opener);
            if (opener == '{') braces++; else squares++;
        }

        /** Pops to the innermost {@code opener}, closing what is open inside it, when one is open. */
        void closeTo(char opener) {
            if ((opener == '{' ? braces : squares) == 0) return;
            char popped;
            do {
                popped = stack.charAt(stack.length() - 1);
                stack.setLength(stack.length() - 1);
                if (popped == '{') braces--; else squares--;
            } while (popped != opener);
        }
    }

    /** The start of {@code s[from, to)}: enough for an error's one-line excerpt, without copying megabytes. */
    private String excerpt(int from, int to) {
        return s.substring(from, Math.min(to, from + 8 * CommandParseError.MAX_EXCERPT));
    }
}
