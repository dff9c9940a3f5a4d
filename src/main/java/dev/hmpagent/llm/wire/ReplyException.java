package dev.hmpagent.llm.wire;

import java.io.IOException;

/** A 2xx reply we could not use (any provider): malformed JSON/SSE, an error object inside the stream, or a stream cut short. */
public final class ReplyException extends IOException {
    public static final String BAD_RESPONSE = "bad_response";
    public static final String STREAM_ERROR = "stream_error";
    public static final String TRUNCATED = "truncated";

    private final String kind;

    public ReplyException(String kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public static ReplyException malformed(String message, Throwable cause) {
        return new ReplyException(BAD_RESPONSE, message, cause);
    }

    public String kind() { return kind; }

    /** Whether this says only that the reply's text could not be read (not the server's own error). */
    public boolean malformed() { return kind.equals(BAD_RESPONSE); }
}
