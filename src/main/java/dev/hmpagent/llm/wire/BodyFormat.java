package dev.hmpagent.llm.wire;

import okhttp3.MediaType;
import okio.BufferedSource;

import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * What a 2xx body holds, decided from its Content-Type, leniently: {@code text/event-stream}
 * (any parameters) is a stream, any {@code *json*} subtype is JSON, and a missing or
 * {@code text/plain} type is decided by the first non-blank bytes, peeked, not consumed.
 * Anything else (a proxy's HTML login page) is {@link #OTHER}. The same for every provider that answers with JSON
 * or server-sent events.
 */
public enum BodyFormat {
    EVENT_STREAM, JSON, OTHER;

    private static final List<String> EVENT_STREAM_STARTS = List.of("data:", ":", "event:", "id:");
    private static final int MAX_LEADING_BLANKS = 8 * 1024;

    /**
     * @param type the response's Content-Type, null when it sent none
     * @param body the body, left unconsumed
     * @param ifEmpty the format an empty (or all-blank) untyped body is taken for
     */
    public static BodyFormat of(MediaType type, BufferedSource body, BodyFormat ifEmpty) throws IOException {
        if (type != null) {
            String main = type.type().toLowerCase(Locale.ROOT);
            String sub = type.subtype().toLowerCase(Locale.ROOT);
            if (main.equals("text") && sub.equals("event-stream")) return EVENT_STREAM;
            if (sub.contains("json")) return JSON;
            if (!(main.equals("text") && sub.equals("plain"))) return OTHER;
        }
        return sniff(body, ifEmpty);
    }

    /** Decides by the first non-blank bytes: {@code data:}, {@code :}, {@code event:}, {@code id:} or <code>{</code>. */
    public static BodyFormat sniff(BufferedSource body, BodyFormat ifEmpty) throws IOException {
        BufferedSource peek = body.peek();
        StringBuilder head = new StringBuilder();
        int blanks = 0;
        while (peek.request(1)) {
            byte b = peek.readByte();
            if (head.length() == 0 && isBlank(b)) {
                if (++blanks > MAX_LEADING_BLANKS) return OTHER;
                continue;
            }
            head.append((char) (b & 0xff));
            BodyFormat decided = decide(head.toString());
            if (decided != null) return decided;
        }
        return head.length() == 0 ? ifEmpty : OTHER;
    }

    /** The format {@code head} shows, or null while it is still a prefix of an event-stream field. */
    private static BodyFormat decide(String head) {
        if (head.startsWith("{")) return JSON;
        boolean undecided = false;
        for (String start : EVENT_STREAM_STARTS) {
            if (head.startsWith(start)) return EVENT_STREAM;
            if (start.startsWith(head)) undecided = true;
        }
        return undecided ? null : OTHER;
    }

    private static boolean isBlank(byte b) {
        return b == ' ' || b == '\t' || b == '\r' || b == '\n';
    }
}
