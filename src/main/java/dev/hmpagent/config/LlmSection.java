package dev.hmpagent.config;

import java.time.Duration;
import java.util.Objects;

/** The [llm] section: which OpenAI-compatible endpoint to talk to and how. */
public record LlmSection(
        String baseUrl,
        String model,
        String apiKey,
        double temperature,
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
                + ", maxTokens=" + maxTokens
                + ", stream=" + stream
                + ", connectTimeout=" + connectTimeout
                + ", readTimeout=" + readTimeout
                + ", maxBackoff=" + maxBackoff
                + ", callDeadline=" + callDeadline
                + ", giveUp=" + giveUp + "]";
    }
}
