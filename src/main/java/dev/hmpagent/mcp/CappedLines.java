package dev.hmpagent.mcp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * The lines of a stdio server's stdout, each at most {@code cap} bytes: a longer one is read to its end but not kept
 * (only its size, its first and its last bytes, where a JSON-RPC answer names its id), so a server that writes 50 MB
 * on one line costs the agent {@code cap} bytes of memory, never 50 MB of String. Not thread-safe: one reader thread.
 */
final class CappedLines {
    /** How many bytes of the start and of the end of a refused line are kept: enough to find its {@code "id"}. */
    static final int KEPT = 256;

    /** One line: its text, or, when it was over the cap, its size in bytes and its ends. */
    record Line(String text, long bytes, String ends) {
        /** Whether the line was over the cap (its text is then empty). */
        boolean refused() {
            return text == null;
        }
    }

    private final InputStream in;
    private final int cap;
    private final byte[] buffer = new byte[64 * 1024];
    private int position;
    private int limit;

    CappedLines(InputStream in, int cap) {
        this.in = Objects.requireNonNull(in, "in");
        if (cap < KEPT * 2) throw new IllegalArgumentException("cap " + cap + " is below " + KEPT * 2 + " bytes");
        this.cap = cap;
    }

    /** The next line (without its end, {@code \n} or {@code \r\n}), or empty at the end of the stream. */
    Optional<Line> next() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        byte[] tail = new byte[KEPT];
        long size = 0;
        boolean any = false;
        while (true) {
            if (position == limit) {
                limit = in.read(buffer, 0, buffer.length);
                position = 0;
                if (limit <= 0) {
                    limit = 0;
                    return any ? Optional.of(ended(line, tail, size)) : Optional.empty();
                }
            }
            any = true;
            int start = position;
            while (position < limit && buffer[position] != '\n') position++;
            int length = position - start;
            boolean end = position < limit;
            if (end) position++;   // past the '\n'
            size = keep(line, tail, size, start, length);
            if (end) return Optional.of(ended(line, tail, size));
        }
    }

    /** Keeps {@code length} bytes at {@code start} while the line is within the cap; always its last bytes. */
    private long keep(ByteArrayOutputStream line, byte[] tail, long size, int start, int length) {
        long now = size + length;
        if (now <= cap) {
            line.write(buffer, start, length);
        } else if (size <= cap) {   // just went over: keep only the head from now on
            byte[] head = Arrays.copyOf(line.toByteArray(), Math.min(line.size(), KEPT));
            line.reset();
            line.write(head, 0, head.length);
            line.write(buffer, start, Math.min(length, KEPT - head.length));
        }
        int from = Math.max(start, start + length - KEPT);
        int kept = start + length - from;
        System.arraycopy(tail, kept, tail, 0, KEPT - kept);
        System.arraycopy(buffer, from, tail, KEPT - kept, kept);
        return now;
    }

    private Line ended(ByteArrayOutputStream line, byte[] tail, long size) {
        if (size <= cap) {
            byte[] bytes = line.toByteArray();
            int n = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
            return new Line(new String(bytes, 0, n, StandardCharsets.UTF_8), size, "");
        }
        String ends = line.toString(StandardCharsets.UTF_8) + " … " + new String(tail, StandardCharsets.UTF_8);
        return new Line(null, size, ends);
    }
}
