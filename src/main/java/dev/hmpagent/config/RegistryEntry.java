package dev.hmpagent.config;

import java.util.Map;
import java.util.Objects;

/**
 * One LLM of llm.registry: another model (maybe at another provider) the agent may think with when the main one is
 * unreachable, or when the LLM selects it. {@code apiKeyEnv} names the environment variable holding its key (never the
 * key); the key is sent only to {@code baseUrl}. Lower {@code priority} is tried first (the main LLM is 0).
 * {@code options} are model options for provider ollama; {@code commands} how it is asked for commands.
 */
public record RegistryEntry(String id, Provider provider, String baseUrl, String model, String apiKeyEnv, int priority,
                            Map<String, Object> options, String description, CommandsMode commands) {
    public RegistryEntry {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(apiKeyEnv, "apiKeyEnv");
        options = Map.copyOf(options);
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(commands, "commands");
    }

    /** An entry that takes command blocks. */
    public RegistryEntry(String id, Provider provider, String baseUrl, String model, String apiKeyEnv, int priority,
                         Map<String, Object> options, String description) {
        this(id, provider, baseUrl, model, apiKeyEnv, priority, options, description, CommandsMode.BLOCK);
    }
}
