package dev.hmpagent.repl;

import java.io.IOException;
import java.io.Reader;
import java.util.Objects;

/**
 * Piped input, line by line, straight from the stream. JLine's line editor is for a person at a terminal: on a pipe it
 * copied its whole buffer for every character (about 17 s of CPU per MB of one line, and the heap ran out on 10 MB),
 * and a tab in a pasted log asked for completion. Here a line is read in blocks and kept as it came (its control
 * characters are removed later, as for a typed line). A line longer than {@link #MAX_CHARS} is not kept whole: it is
 * read to its end without being stored, and reported with its length, so a script's giant line costs no more memory
 * than the limit.
 */
final class PipedLines {
    /** The longest message a pipe can send: 16 Mi characters (a person's messages are the task; this is a guard). */
    static final int MAX_CHARS = 16 * 1024 * 1024;

    /** One line: its text, or (when it was over the limit) null and the length it had. */
    record Line(String text, long refusedLength) {
        boolean refused() { return text == null; }
    }

    private final Reader in;
    private final int maxChars;
    private final char[] buffer = new char[1 << 16];
    private int position;
    private int limit;
    private boolean ended;

    PipedLines(Reader in) {
        this(in, MAX_CHARS);
    }

    PipedLines(Reader in, int maxChars) {
        this.in = Objects.requireNonNull(in, "in");
        if (maxChars < 1) throw new IllegalArgumentException("maxChars must be positive: " + maxChars);
        this.maxChars = maxChars;
    }

    /**
     * The next line without its end ({@code \n}, {@code \r\n}), or null at the end of input. The last line counts even
     * without a newline.
     */
    Line next() throws IOException {
        StringBuilder line = new StringBuilder();
        long length = 0;
        boolean any = false;
        while (true) {
            if (position == limit && !fill()) {
                if (!any) return null;
                return finish(line, length);
            }
            any = true;
            int start = position;
            while (position < limit && buffer[position] != '\n') position++;
            int n = position - start;
            if (length + n <= maxChars) line.append(buffer, start, n);
            else line.setLength(0);
            length += n;
            if (position < limit) {   // the newline
                position++;
                return finish(line, length);
            }
        }
    }

    private Line finish(StringBuilder line, long length) {
        if (length > maxChars) return new Line(null, length);
        int end = line.length();
        if (end > 0 && line.charAt(end - 1) == '\r') line.setLength(end - 1);
        return new Line(line.toString(), 0);
    }

    private boolean fill() throws IOException {
        if (ended) return false;
        int n = in.read(buffer, 0, buffer.length);
        if (n < 0) {
            ended = true;
            return false;
        }
        position = 0;
        limit = n;
        return true;
    }
}
