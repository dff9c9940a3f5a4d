package dev.hmpagent.llm;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the cycle asks of a model: the messages plus sampling settings. A penalty of 0 (the servers' default) is not
 * sent, so a server that does not know the parameter is never troubled by it.
 *
 * <p>{@code tools} are sent as the provider's native tools when not empty. {@code offer} is what an LLM entry that
 * takes commands as tool calls gets instead ({@link #asTools()}); an entry that takes command blocks drops it
 * ({@link #asBlock()}); an entry that takes a JSON reply gets the offer's schema as {@code replySchema}
 * ({@link #asJson()}). Adapters read only {@code tools} and {@code replySchema}.
 */
public record LlmRequest(List<Message> messages, double temperature, int maxTokens, double presencePenalty,
                         double frequencyPenalty, List<ToolSpec> tools, ToolOffer offer, ReplySchema replySchema) {
    public LlmRequest {
        messages = List.copyOf(Objects.requireNonNull(messages, "messages"));
        if (messages.isEmpty()) throw new IllegalArgumentException("messages must not be empty");
        if (maxTokens <= 0) throw new IllegalArgumentException("maxTokens must be > 0");
        tools = List.copyOf(Objects.requireNonNull(tools, "tools"));
        Objects.requireNonNull(offer, "offer");
        Objects.requireNonNull(replySchema, "replySchema");
    }

    /** A request that asks for no JSON reply. */
    public LlmRequest(List<Message> messages, double temperature, int maxTokens, double presencePenalty,
                      double frequencyPenalty, List<ToolSpec> tools, ToolOffer offer) {
        this(messages, temperature, maxTokens, presencePenalty, frequencyPenalty, tools, offer, ReplySchema.NONE);
    }

    /** A request offering no tools. */
    public LlmRequest(List<Message> messages, double temperature, int maxTokens, double presencePenalty,
                      double frequencyPenalty) {
        this(messages, temperature, maxTokens, presencePenalty, frequencyPenalty, List.of(), ToolOffer.NONE);
    }

    /** A request with no penalties. */
    public LlmRequest(List<Message> messages, double temperature, int maxTokens) {
        this(messages, temperature, maxTokens, 0, 0);
    }

    /** The same request with other messages (a failover renaming the model in context 5). */
    public LlmRequest withMessages(List<Message> other) {
        return new LlmRequest(other, temperature, maxTokens, presencePenalty, frequencyPenalty, tools, offer,
                replySchema);
    }

    /**
     * The request for an entry that takes commands as tool calls: the offer's system message in place of the first
     * system message, and its tools. The same request when nothing is offered.
     */
    public LlmRequest asTools() {
        if (!offer.any()) return this;
        return new LlmRequest(swapped(offer.system()), temperature, maxTokens, presencePenalty, frequencyPenalty,
                offer.tools(), ToolOffer.NONE);
    }

    /**
     * The request for an entry that takes a JSON reply: the offer's JSON context 0 in place of the first system
     * message, and its reply schema; no tools. The request for blocks when no schema is offered.
     */
    public LlmRequest asJson() {
        if (!offer.anyJson()) return asBlock();
        return new LlmRequest(swapped(offer.jsonSystem()), temperature, maxTokens, presencePenalty, frequencyPenalty,
                List.of(), ToolOffer.NONE, offer.replySchema());
    }

    /** The request for an entry that takes command blocks: no tools, no offer, no schema. */
    public LlmRequest asBlock() {
        if (tools.isEmpty() && !offer.any() && !offer.anyJson() && !replySchema.any()) return this;
        return new LlmRequest(messages, temperature, maxTokens, presencePenalty, frequencyPenalty);
    }

    /** The messages with {@code system} in place of the first system message (or first, when there is none). */
    private List<Message> swapped(Message system) {
        List<Message> out = new ArrayList<>(messages);
        int first = firstSystem();
        if (first >= 0) out.set(first, system);
        else out.add(0, system);
        return out;
    }

    private int firstSystem() {
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i).role() == Message.Role.SYSTEM) return i;
        }
        return -1;
    }
}
