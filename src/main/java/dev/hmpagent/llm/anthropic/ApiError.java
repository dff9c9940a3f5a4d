package dev.hmpagent.llm.anthropic;

import java.util.Objects;

/**
 * An error as Anthropic reports it, in an error body or a stream's {@code error} event:
 * {@code {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}}. {@code code} is
 * {@code error.details.error_code} when sent (e.g. {@code enforced_spend_limit_reached}), else empty.
 */
record ApiError(String type, String message, String code) {
    ApiError {
        type = Objects.requireNonNullElse(type, "");
        message = Objects.requireNonNullElse(message, "");
        code = Objects.requireNonNullElse(code, "");
    }
}
