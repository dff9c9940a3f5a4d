package dev.hmpagent.llm;

import java.util.Objects;

/**
 * A model's reply. {@code interrupted} is true when the call was cancelled (Ctrl-C) and
 * {@code text} holds only what had streamed in by then.
 */
public record Completion(String text, Usage usage, String model, String finishReason, boolean interrupted) {
    /**
     * The finish reason of a streamed reply that sent one event (or line) over 1 MB: what fit was kept and the
     * reply ends there. The server answered, so this is no outage; the person is told.
     */
    public static final String EVENT_CUT = "event_too_long";

    public Completion {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(usage, "usage");
        Objects.requireNonNull(model, "model");
        finishReason = finishReason == null ? "" : finishReason;
    }
}
