package dev.hmpagent.llm.ollama;

import java.util.Objects;

/**
 * One parsed {@code /api/chat} object: a line of a stream, or a whole non-streaming reply. {@code text} is
 * {@code message.content} (empty when absent); {@code counts} is null when the object carried none.
 */
record OllamaChunk(String text, String model, boolean done, String doneReason, ServerCounts counts) {
    OllamaChunk {
        Objects.requireNonNull(text, "text");
        model = model == null ? "" : model;
        doneReason = doneReason == null ? "" : doneReason;
    }
}
