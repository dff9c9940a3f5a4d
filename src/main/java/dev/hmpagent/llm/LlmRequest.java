package dev.hmpagent.llm;

import java.util.List;
import java.util.Objects;

/** What the cycle asks of a model: the messages plus sampling settings. */
public record LlmRequest(List<Message> messages, double temperature, int maxTokens) {
    public LlmRequest {
        messages = List.copyOf(Objects.requireNonNull(messages, "messages"));
        if (messages.isEmpty()) throw new IllegalArgumentException("messages must not be empty");
        if (maxTokens <= 0) throw new IllegalArgumentException("maxTokens must be > 0");
    }
}
