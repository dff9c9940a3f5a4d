package dev.hmpagent.llm.openai;

import dev.hmpagent.llm.wire.HttpSettings;
import java.time.Duration;
import java.util.Objects;

/**
 * Where and how to reach an OpenAI-compatible {@code /chat/completions} server.
 * {@code apiKey} may be empty (local servers); {@link #toString()} never shows it.
 * {@code callDeadline} bounds a whole call, reading a trickling stream included.
 */
public record OpenAiSettings(String baseUrl, String apiKey, String model, boolean stream,
                             Duration connectTimeout, Duration readTimeout, Duration callDeadline)
        implements HttpSettings {
    public OpenAiSettings {
        Objects.requireNonNull(baseUrl, "baseUrl");
        apiKey = HttpSettings.key(apiKey);
        Objects.requireNonNull(model, "model");
        if (baseUrl.isBlank()) throw new IllegalArgumentException("baseUrl must not be blank");
        HttpSettings.check(model, connectTimeout, readTimeout, callDeadline);
    }

    /** Settings with the {@link HttpSettings#DEFAULT_CALL_DEADLINE}. */
    public OpenAiSettings(String baseUrl, String apiKey, String model, boolean stream,
                          Duration connectTimeout, Duration readTimeout) {
        this(baseUrl, apiKey, model, stream, connectTimeout, readTimeout, DEFAULT_CALL_DEADLINE);
    }

    @Override
    public String toString() {
        return HttpSettings.describe("OpenAiSettings", this);
    }
}
