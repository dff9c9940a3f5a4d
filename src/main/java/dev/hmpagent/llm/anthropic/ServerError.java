package dev.hmpagent.llm.anthropic;

import java.io.IOException;
import java.util.Objects;

/** The server reported an error inside a 2xx reply: a stream's {@code error} event, or an error object as the body. */
final class ServerError extends IOException {
    private final ApiError error;

    ServerError(ApiError error) {
        super(Objects.requireNonNull(error, "error").type() + ": " + error.message());
        this.error = error;
    }

    ApiError error() { return error; }
}
