package dev.hmpagent.llm.anthropic;

import dev.hmpagent.llm.wire.ToolCallPart;
import java.util.List;
import java.util.Objects;

/**
 * A parsed reply, or what of it has arrived, before usage is settled. {@code usage} is null when the server sent
 * none; {@code outputFinal} says whether its output count is the final one (a stream's message_delta, or a whole
 * message), not message_start's first guess; {@code toolCalls} its tool_use blocks, or pieces of them.
 */
record Reply(String text, String model, String finishReason, ServerUsage usage, boolean outputFinal,
             List<ToolCallPart> toolCalls) {
    Reply {
        Objects.requireNonNull(text, "text");
        model = model == null ? "" : model;
        finishReason = finishReason == null ? "" : finishReason;
        toolCalls = List.copyOf(toolCalls);
    }

    /** A reply without tool calls. */
    Reply(String text, String model, String finishReason, ServerUsage usage, boolean outputFinal) {
        this(text, model, finishReason, usage, outputFinal, List.of());
    }
}
