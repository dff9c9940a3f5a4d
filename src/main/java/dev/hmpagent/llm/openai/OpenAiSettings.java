package dev.hmpagent.llm.openai;

import java.time.Duration;
import java.util.Objects;

/**
 * Where and how to reach an OpenAI-compatible {@code /chat/completions} server.
 * {@code apiKey} may be empty (local servers); {@link #toString()} never shows it.
 */
public record OpenAiSettings(String baseUrl, String apiKey, String model, boolean stream,
                             Duration connectTimeout, Duration readTimeout) {
    public OpenAiSettings {
        Objects.requireNonNull(baseUrl, "baseUrl");
        apiKey = apiKey == null ? "" : apiKey.strip();
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(readTimeout, "readTimeout");
        if (baseUrl.isBlank()) throw new IllegalArgumentException("baseUrl must not be blank");
        if (model.isBlank()) throw new IllegalArgumentException("model must not be blank");
        if (connectTimeout.isNegative() || readTimeout.isNegative()) {
            throw new IllegalArgumentException("timeouts must not be negative");
        }
    }

    @Override
    public String toString() {
        return "OpenAiSettings[baseUrl=" + baseUrl + ", apiKey=" + (apiKey.isEmpty() ? "" : "***")
                + ", model=" + model + ", stream=" + stream + ", connectTimeout=" + connectTimeout
                + ", readTimeout=" + readTimeout + "]";
    }
}
