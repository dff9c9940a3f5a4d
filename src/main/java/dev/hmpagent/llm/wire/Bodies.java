package dev.hmpagent.llm.wire;

import okhttp3.MediaType;
import okio.BufferedSource;

import java.io.IOException;

/** Limits on what a server's reply may make us hold, for every provider, and reading within them. */
public final class Bodies {
    /** The largest whole (non-streamed) body read: 16 MiB; a bigger one is a retryable bad_response. */
    public static final long MAX_BODY_BYTES = 16L * 1024 * 1024;
    /** The longest reply text kept: 4 Mi characters; a runaway reply is cut there, as if by max_tokens. */
    public static final int MAX_REPLY_CHARS = 4 * 1024 * 1024;
    /** The finish reason of a reply this side cut at {@link #MAX_REPLY_CHARS}: like a server's "length". */
    public static final String CUT = "length";
    /**
     * The finish reason of a streamed reply that sent one event (or NDJSON line) longer than 1 MB: the part that
     * fit was kept and the reply ends there. Not an outage; the person is told.
     */
    public static final String EVENT_CUT = dev.hmpagent.llm.Completion.EVENT_CUT;

    private Bodies() { }

    /**
     * A whole body as UTF-8, refused beyond {@code maxBytes} without reading it all, so a server cannot exhaust memory.
     *
     * @throws ReplyException a bad_response when the body is larger
     */
    public static String readCapped(BufferedSource source, long maxBytes) throws IOException {
        if (source.request(maxBytes + 1)) {
            throw ReplyException.malformed("the reply body is larger than " + describeSize(maxBytes)
                    + "; it was not read", null);
        }
        return source.readUtf8();
    }

    /** The type and subtype of a Content-Type, for messages; null when the server sent none. */
    public static String describe(MediaType type) {
        return type == null ? null : type.type() + "/" + type.subtype();
    }

    private static String describeSize(long bytes) {
        long mib = 1024 * 1024;
        return bytes % mib == 0 ? bytes / mib + " MB" : bytes + " bytes";
    }
}
