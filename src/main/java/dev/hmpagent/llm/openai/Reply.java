package dev.hmpagent.llm.openai;

import dev.hmpagent.llm.wire.ToolCallPart;
import java.util.List;
import java.util.Objects;

/**
 * A parsed reply (or stream chunk) before usage is settled; {@code usage} is null when the server sent none.
 * {@code toolCalls} are its tool calls, or a chunk's pieces of them.
 */
record Reply(String text, String model, String finishReason, ServerUsage usage, List<ToolCallPart> toolCalls) {
    Reply {
        Objects.requireNonNull(text, "text");
        model = model == null ? "" : model;
        finishReason = finishReason == null ? "" : finishReason;
        toolCalls = List.copyOf(toolCalls);
    }

    /** A reply without tool calls. */
    Reply(String text, String model, String finishReason, ServerUsage usage) {
        this(text, model, finishReason, usage, List.of());
    }
}
