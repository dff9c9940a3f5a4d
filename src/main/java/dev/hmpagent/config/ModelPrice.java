package dev.hmpagent.config;

import java.util.Objects;

/**
 * What one model costs (llm.prices), in US dollars per million tokens: prompt tokens read fresh ({@code input}),
 * prompt tokens served from the provider's cache ({@code cachedInput}; the input price when not given), and reply
 * tokens ({@code output}).
 */
public record ModelPrice(String model, double input, double cachedInput, double output) {
    public ModelPrice {
        Objects.requireNonNull(model, "model");
        if (model.isBlank()) throw new IllegalArgumentException("model must not be blank");
        if (!(input >= 0 && cachedInput >= 0 && output >= 0)) throw new IllegalArgumentException("negative price");
    }
}
