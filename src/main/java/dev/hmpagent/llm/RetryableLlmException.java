package dev.hmpagent.llm;

import java.time.Duration;
import java.util.Optional;

/** A failure that may pass if the same request is sent again later. */
public final class RetryableLlmException extends LlmException {
    private final Duration retryAfter;

    public RetryableLlmException(String kind, String message, Duration retryAfter, Throwable cause) {
        super(kind, message, cause);
        this.retryAfter = retryAfter;
    }

    /** The server's Retry-After, when it sent one. */
    public Optional<Duration> retryAfter() { return Optional.ofNullable(retryAfter); }

    @Override
    public boolean retryable() { return true; }
}
