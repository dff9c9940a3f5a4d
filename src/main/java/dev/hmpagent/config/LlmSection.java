package dev.hmpagent.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The [llm] section: which OpenAI-compatible endpoint to talk to and how.
 *
 * @param presencePenalty  presence penalty sent with each main-cycle request; 0 sends none. The anti-stagnation
 *                         reflex raises it while the agent loops and returns it here after a novel reply
 * @param frequencyPenalty frequency penalty, the same way
 */
public record LlmSection(
        String baseUrl,
        String model,
        String apiKey,
        double temperature,
        double presencePenalty,
        double frequencyPenalty,
        int maxTokens,
        boolean stream,
        Duration connectTimeout,
        Duration readTimeout,
        Duration maxBackoff,
        Duration callDeadline,
        Duration giveUp) {

    public LlmSection {
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(apiKey, "apiKey");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(readTimeout, "readTimeout");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        Objects.requireNonNull(callDeadline, "callDeadline");
        Objects.requireNonNull(giveUp, "giveUp");
    }

    /** A section with both penalties at 0 (none sent): for code written before the keys existed. */
    public LlmSection(String baseUrl, String model, String apiKey, double temperature, int maxTokens, boolean stream,
                      Duration connectTimeout, Duration readTimeout, Duration maxBackoff, Duration callDeadline,
                      Duration giveUp) {
        this(baseUrl, model, apiKey, temperature, 0, 0, maxTokens, stream, connectTimeout, readTimeout, maxBackoff,
                callDeadline, giveUp);
    }

    /** True when an API key is configured (it may legitimately be empty for local servers). */
    public boolean hasApiKey() {
        return !apiKey.isEmpty();
    }

    /** Like the generated form, but the API key is masked. */
    @Override
    public String toString() {
        return "LlmSection[baseUrl=" + baseUrl
                + ", model=" + model
                + ", apiKey=" + Secrets.mask(apiKey)
                + ", temperature=" + temperature
                + ", presencePenalty=" + presencePenalty
                + ", frequencyPenalty=" + frequencyPenalty
                + ", maxTokens=" + maxTokens
                + ", stream=" + stream
                + ", connectTimeout=" + connectTimeout
                + ", readTimeout=" + readTimeout
                + ", maxBackoff=" + maxBackoff
                + ", callDeadline=" + callDeadline
                + ", giveUp=" + giveUp + "]";
    }
}
