package dev.hmpagent.llm;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A failure that may pass if the same request is sent again later. When the reply broke off
 * midway (truncated stream, deadline), {@link #partialText()} holds what had arrived by then.
 */
public final class RetryableLlmException extends LlmException {
    private final Duration retryAfter;
    private final String partialText;

    public RetryableLlmException(String kind, String message, Duration retryAfter, Throwable cause) {
        this(kind, message, retryAfter, "", cause);
    }

    /** @param partialText the reply text received before the failure; null means none */
    public RetryableLlmException(String kind, String message, Duration retryAfter, String partialText,
                                 Throwable cause) {
        super(kind, message, cause);
        this.retryAfter = retryAfter;
        this.partialText = Objects.requireNonNullElse(partialText, "");
    }

    /** The server's Retry-After, when it sent one. */
    public Optional<Duration> retryAfter() { return Optional.ofNullable(retryAfter); }

    /** The reply text that had streamed in before the failure; empty when none. */
    public String partialText() { return partialText; }

    @Override
    public boolean retryable() { return true; }
}
