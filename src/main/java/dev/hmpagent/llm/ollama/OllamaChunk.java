package dev.hmpagent.llm.ollama;

import dev.hmpagent.llm.ToolCall;
import java.util.List;
import java.util.Objects;

/**
 * One parsed {@code /api/chat} object: a line of a stream, or a whole non-streaming reply. {@code text} is
 * {@code message.content} (empty when absent); {@code counts} is null when the object carried none; {@code toolCalls}
 * are {@code message.tool_calls}, whole.
 */
record OllamaChunk(String text, String model, boolean done, String doneReason, ServerCounts counts,
                   List<ToolCall> toolCalls) {
    OllamaChunk {
        Objects.requireNonNull(text, "text");
        model = model == null ? "" : model;
        doneReason = doneReason == null ? "" : doneReason;
        toolCalls = List.copyOf(toolCalls);
    }

    /** An object without tool calls. */
    OllamaChunk(String text, String model, boolean done, String doneReason, ServerCounts counts) {
        this(text, model, done, doneReason, counts, List.of());
    }
}
