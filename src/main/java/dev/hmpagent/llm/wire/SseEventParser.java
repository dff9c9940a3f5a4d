package dev.hmpagent.llm.wire;

import okio.BufferedSource;

import java.io.IOException;

/**
 * Turns server-sent-event lines into event data, per the SSE rules that matter here:
 * {@code data:} lines accumulate (joined by newlines), a blank line ends the event,
 * {@code :} lines are comments, other fields ({@code event}, {@code id}, {@code retry}) are ignored.
 * Feed lines without their terminator. A line longer than {@link #MAX_BYTES} bytes, or an
 * event whose data grows past as many characters, is refused, so a garbage stream cannot
 * fill the heap. Not thread-safe; one per stream.
 */
public final class SseEventParser {
    /** The longest line (bytes) and event data (characters) accepted: 1 MB. */
    public static final int MAX_BYTES = 1024 * 1024;

    private final StringBuilder data = new StringBuilder();
    private boolean hasData;

    /**
     * Reads the next line without its LF or CRLF terminator, or null at the end of the stream;
     * the last line may lack a terminator. Reads at most {@link #MAX_BYTES} + 2 bytes ahead.
     *
     * @throws ReplyException when the line is longer than {@link #MAX_BYTES} bytes
     */
    public static String readLine(BufferedSource source) throws IOException {
        long newline = source.indexOf((byte) '\n', 0, MAX_BYTES + 2L);
        if (newline < 0) {
            if (source.request(MAX_BYTES + 2L)) throw tooLong("line");
            if (source.exhausted()) return null;
            if (source.getBuffer().size() > MAX_BYTES) throw tooLong("line");
            return source.readUtf8();
        }
        long end = newline > 0 && source.getBuffer().getByte(newline - 1) == '\r' ? newline - 1 : newline;
        if (end > MAX_BYTES) throw tooLong("line");
        String line = source.readUtf8(end);
        source.skip(newline + 1 - end);
        return line;
    }

    /**
     * Feeds one line; returns the data of the event this line completes, or null.
     *
     * @throws ReplyException when the event's data would grow past {@link #MAX_BYTES} characters
     */
    public String line(String line) throws ReplyException {
        if (line.isEmpty()) return dispatch();
        if (line.startsWith(":")) return null;
        int colon = line.indexOf(':');
        String field = colon < 0 ? line : line.substring(0, colon);
        if (!field.equals("data")) return null;
        String value = colon < 0 ? "" : line.substring(colon + 1);
        if (value.startsWith(" ")) value = value.substring(1);
        if (data.length() + 1L + value.length() > MAX_BYTES) throw tooLong("event");
        if (hasData) data.append('\n');
        data.append(value);
        hasData = true;
        return null;
    }

    /** At end of stream: the data of an event the server did not end with a blank line, or null. */
    public String finish() {
        return dispatch();
    }

    private String dispatch() {
        if (!hasData) return null;
        String event = data.toString();
        data.setLength(0);
        hasData = false;
        return event;
    }

    private static ReplyException tooLong(String what) {
        return ReplyException.malformed("an event-stream " + what + " longer than 1 MB", null);
    }
}
