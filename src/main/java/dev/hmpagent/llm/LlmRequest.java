package dev.hmpagent.llm;

import java.util.List;
import java.util.Objects;

/**
 * What the cycle asks of a model: the messages plus sampling settings. A penalty of 0 (the servers' default) is not
 * sent, so a server that does not know the parameter is never troubled by it.
 */
public record LlmRequest(List<Message> messages, double temperature, int maxTokens, double presencePenalty,
                         double frequencyPenalty) {
    public LlmRequest {
        messages = List.copyOf(Objects.requireNonNull(messages, "messages"));
        if (messages.isEmpty()) throw new IllegalArgumentException("messages must not be empty");
        if (maxTokens <= 0) throw new IllegalArgumentException("maxTokens must be > 0");
    }

    /** A request with no penalties. */
    public LlmRequest(List<Message> messages, double temperature, int maxTokens) {
        this(messages, temperature, maxTokens, 0, 0);
    }
}
