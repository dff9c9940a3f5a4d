package dev.hmpagent.llm.anthropic;

import java.time.Duration;
import java.util.Objects;

/**
 * Where and how to reach Anthropic's Messages API. {@code baseUrl} null or blank means {@link #DEFAULT_BASE_URL};
 * with or without a trailing {@code /v1}. {@code apiKey} may be empty (a proxy that adds it); {@link #toString()}
 * never shows it. {@code callDeadline} bounds a whole call, reading a trickling stream included.
 */
public record AnthropicSettings(String baseUrl, String apiKey, String model, boolean stream,
                                Duration connectTimeout, Duration readTimeout, Duration callDeadline) {
    /** Anthropic's own API. */
    public static final String DEFAULT_BASE_URL = "https://api.anthropic.com";
    /** The call deadline when none is configured. */
    public static final Duration DEFAULT_CALL_DEADLINE = Duration.ofSeconds(300);

    public AnthropicSettings {
        baseUrl = baseUrl == null || baseUrl.isBlank() ? DEFAULT_BASE_URL : baseUrl;
        apiKey = apiKey == null ? "" : apiKey.strip();
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(readTimeout, "readTimeout");
        Objects.requireNonNull(callDeadline, "callDeadline");
        if (model.isBlank()) throw new IllegalArgumentException("model must not be blank");
        if (connectTimeout.isNegative() || readTimeout.isNegative()) {
            throw new IllegalArgumentException("timeouts must not be negative");
        }
        if (callDeadline.isNegative() || callDeadline.isZero()) {
            throw new IllegalArgumentException("callDeadline must be > 0");
        }
    }

    /** Settings with the {@link #DEFAULT_CALL_DEADLINE}. */
    public AnthropicSettings(String baseUrl, String apiKey, String model, boolean stream,
                             Duration connectTimeout, Duration readTimeout) {
        this(baseUrl, apiKey, model, stream, connectTimeout, readTimeout, DEFAULT_CALL_DEADLINE);
    }

    @Override
    public String toString() {
        return "AnthropicSettings[baseUrl=" + baseUrl + ", apiKey=" + (apiKey.isEmpty() ? "" : "***")
                + ", model=" + model + ", stream=" + stream + ", connectTimeout=" + connectTimeout
                + ", readTimeout=" + readTimeout + ", callDeadline=" + callDeadline + "]";
    }
}
