package dev.hmpagent.llm;

import java.util.Objects;

/**
 * A model's reply. {@code interrupted} is true when the call was cancelled (Ctrl-C) and
 * {@code text} holds only what had streamed in by then.
 */
public record Completion(String text, Usage usage, String model, String finishReason, boolean interrupted) {
    public Completion {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(usage, "usage");
        Objects.requireNonNull(model, "model");
        finishReason = finishReason == null ? "" : finishReason;
    }
}
