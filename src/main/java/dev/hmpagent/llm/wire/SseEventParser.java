package dev.hmpagent.llm.wire;

import okio.BufferedSource;

import java.io.IOException;

/**
 * Turns server-sent-event lines into event data, per the SSE rules that matter here:
 * {@code data:} lines accumulate (joined by newlines), a blank line ends the event,
 * {@code :} lines are comments, other fields ({@code event}, {@code id}, {@code retry}) are ignored.
 * Feed lines without their terminator. A line longer than {@link #MAX_BYTES} bytes, or an
 * event whose data grows past as many characters, is cut there, so a garbage stream cannot
 * fill the heap: the part that fits is kept, {@link #cut()} says so, and the reader stops there
 * (a reply too large is the reply's fault, not an outage). Not thread-safe; one per stream.
 */
public final class SseEventParser {
    /** The longest line (bytes) and event data (characters) accepted: 1 MB. */
    public static final int MAX_BYTES = 1024 * 1024;

    /** One line without its terminator; {@code cut} when it was longer than {@link #MAX_BYTES} and this is its start. */
    public record Line(String text, boolean cut) { }

    private final StringBuilder data = new StringBuilder();
    private boolean hasData;
    private boolean cut;

    /**
     * Reads the next line without its LF or CRLF terminator, or null at the end of the stream;
     * the last line may lack a terminator. Reads at most {@link #MAX_BYTES} + 2 bytes ahead. A
     * longer line comes back cut: its first {@link #MAX_BYTES} bytes (ending on a whole UTF-8
     * character), the rest left unread.
     */
    public static Line nextLine(BufferedSource source) throws IOException {
        long newline = source.indexOf((byte) '\n', 0, MAX_BYTES + 2L);
        if (newline < 0) {
            if (source.request(MAX_BYTES + 2L)) return cutLine(source);
            if (source.exhausted()) return null;
            if (source.getBuffer().size() > MAX_BYTES) return cutLine(source);
            return new Line(source.readUtf8(), false);
        }
        long end = newline > 0 && source.getBuffer().getByte(newline - 1) == '\r' ? newline - 1 : newline;
        if (end > MAX_BYTES) return cutLine(source);
        String line = source.readUtf8(end);
        source.skip(newline + 1 - end);
        return new Line(line, false);
    }

    /** The first {@link #MAX_BYTES} bytes of the buffered line, backed off to the start of a UTF-8 character. */
    private static Line cutLine(BufferedSource source) throws IOException {
        long end = MAX_BYTES;
        while (end > 0 && (source.getBuffer().getByte(end) & 0xC0) == 0x80) end--;   // a continuation byte
        return new Line(source.readUtf8(end), true);
    }

    /**
     * Feeds one line; returns the data of the event this line completes, or null. When the event's data
     * would grow past {@link #MAX_BYTES} characters, the part that fits is kept and returned as the event,
     * and {@link #cut()} turns true.
     */
    public String line(String line) {
        if (line.isEmpty()) return dispatch();
        if (line.startsWith(":")) return null;
        int colon = line.indexOf(':');
        String field = colon < 0 ? line : line.substring(0, colon);
        if (!field.equals("data")) return null;
        String value = colon < 0 ? "" : line.substring(colon + 1);
        if (value.startsWith(" ")) value = value.substring(1);
        if (hasData) data.append('\n');
        hasData = true;
        int room = MAX_BYTES - data.length();
        if (value.length() <= room) {
            data.append(value);
            return null;
        }
        if (room > 0 && Character.isHighSurrogate(value.charAt(room - 1))) room--;
        data.append(value, 0, Math.max(0, room));
        cut = true;
        return dispatch();
    }

    /**
     * Feeds a line that {@link #nextLine} cut: the event it belongs to ends with it, cut. Returns that
     * event's data (null when it had none, e.g. a huge comment); {@link #cut()} is then true.
     */
    public String cutLine(String start) {
        String event = line(start);
        cut = true;
        return event != null ? event : dispatch();
    }

    /** Whether an event was cut at {@link #MAX_BYTES}: the stream should not be read further. */
    public boolean cut() {
        return cut;
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
}
