package dev.hmpagent.llm;

import java.util.List;
import java.util.Objects;

/**
 * A model's reply. {@code interrupted} is true when the call was cancelled (Ctrl-C) and
 * {@code text} holds only what had streamed in by then. {@code toolCalls} are the native tool calls it made, in
 * order (none for a request that offered no tools); {@code toolsOffered} says whether the request that got it offered
 * tools (with the tools-mode context 0), {@code jsonAsked} whether it asked for a JSON reply (with the JSON context
 * 0), so what is kept of the prompt, and what step 5's question follows, is what was sent.
 */
public record Completion(String text, Usage usage, String model, String finishReason, boolean interrupted,
                         List<ToolCall> toolCalls, boolean toolsOffered, boolean jsonAsked) {
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

    /** A reply to a request that offered tools or not, and asked for no JSON reply. */
    public Completion(String text, Usage usage, String model, String finishReason, boolean interrupted,
                      List<ToolCall> toolCalls, boolean toolsOffered) {
        this(text, usage, model, finishReason, interrupted, toolCalls, toolsOffered, false);
    }

    /** A reply to a request that offered no tools. */
    public Completion(String text, Usage usage, String model, String finishReason, boolean interrupted) {
        this(text, usage, model, finishReason, interrupted, List.of(), false);
    }

    /** A reply with the tool calls it made (none when {@code toolCalls} is empty); whether tools were offered is set later. */
    public Completion(String text, Usage usage, String model, String finishReason, boolean interrupted,
                      List<ToolCall> toolCalls) {
        this(text, usage, model, finishReason, interrupted, toolCalls, false);
    }

    /** The same reply with another text, finish reason and interrupted flag; its tool calls kept. */
    public Completion with(String otherText, String otherFinishReason, boolean isInterrupted) {
        return new Completion(otherText, usage, model, otherFinishReason, isInterrupted, toolCalls, toolsOffered,
                jsonAsked);
    }

    /** The same reply, marked as the answer to a request that offered tools. */
    public Completion toToolsOffer() {
        return new Completion(text, usage, model, finishReason, interrupted, toolCalls, true, jsonAsked);
    }

    /** The same reply, marked as the answer to a request that asked for a JSON reply. */
    public Completion toJsonAsked() {
        return new Completion(text, usage, model, finishReason, interrupted, toolCalls, toolsOffered, true);
    }
}
