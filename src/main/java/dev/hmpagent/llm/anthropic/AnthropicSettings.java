package dev.hmpagent.llm.anthropic;

import dev.hmpagent.llm.wire.HttpSettings;
import java.time.Duration;

/**
 * Where and how to reach Anthropic's Messages API. {@code baseUrl} null or blank means {@link #DEFAULT_BASE_URL};
 * with or without a trailing {@code /v1}. {@code apiKey} may be empty (a proxy that adds it); {@link #toString()}
 * never shows it. {@code callDeadline} bounds a whole call, reading a trickling stream included.
 */
public record AnthropicSettings(String baseUrl, String apiKey, String model, boolean stream,
                                Duration connectTimeout, Duration readTimeout, Duration callDeadline)
        implements HttpSettings {
    /** Anthropic's own API. */
    public static final String DEFAULT_BASE_URL = "https://api.anthropic.com";

    public AnthropicSettings {
        baseUrl = baseUrl == null || baseUrl.isBlank() ? DEFAULT_BASE_URL : baseUrl;
        apiKey = HttpSettings.key(apiKey);
        HttpSettings.check(model, connectTimeout, readTimeout, callDeadline);
    }

    /** Settings with the {@link HttpSettings#DEFAULT_CALL_DEADLINE}. */
    public AnthropicSettings(String baseUrl, String apiKey, String model, boolean stream,
                             Duration connectTimeout, Duration readTimeout) {
        this(baseUrl, apiKey, model, stream, connectTimeout, readTimeout, DEFAULT_CALL_DEADLINE);
    }

    @Override
    public String toString() {
        return HttpSettings.describe("AnthropicSettings", this);
    }
}
