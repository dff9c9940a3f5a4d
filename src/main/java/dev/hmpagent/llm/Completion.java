package dev.hmpagent.llm;

import java.util.List;
import java.util.Objects;

/**
 * A model's reply. {@code interrupted} is true when the call was cancelled (Ctrl-C) and
 * {@code text} holds only what had streamed in by then. {@code toolCalls} are the native tool calls it made, in
 * order (none for a request that offered no tools).
 */
public record Completion(String text, Usage usage, String model, String finishReason, boolean interrupted,
                         List<ToolCall> toolCalls) {
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
        toolCalls = List.copyOf(Objects.requireNonNull(toolCalls, "toolCalls"));
    }

    /** A reply without tool calls. */
    public Completion(String text, Usage usage, String model, String finishReason, boolean interrupted) {
        this(text, usage, model, finishReason, interrupted, List.of());
    }

    /** The same reply with another text, finish reason and interrupted flag; its tool calls kept. */
    public Completion with(String otherText, String otherFinishReason, boolean isInterrupted) {
        return new Completion(otherText, usage, model, otherFinishReason, isInterrupted, toolCalls);
    }
}
