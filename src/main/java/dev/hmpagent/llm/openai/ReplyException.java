package dev.hmpagent.llm.openai;

import java.io.IOException;

/** A 2xx reply we could not use: malformed JSON/SSE, an error object inside the stream, or a stream cut short. */
final class ReplyException extends IOException {
    static final String BAD_RESPONSE = "bad_response";
    static final String STREAM_ERROR = "stream_error";
    static final String TRUNCATED = "truncated";

    private final String kind;

    ReplyException(String kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    static ReplyException malformed(String message, Throwable cause) {
        return new ReplyException(BAD_RESPONSE, message, cause);
    }

    String kind() { return kind; }
}
