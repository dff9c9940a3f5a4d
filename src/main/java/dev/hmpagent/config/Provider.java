package dev.hmpagent.config;

import java.util.Locale;

/**
 * The wire protocol an LLM speaks (llm.provider): where its requests go by default and which environment variable
 * holds its key. A key read from one provider's variable is only ever sent to that provider's base URL.
 */
public enum Provider {
    /** OpenAI-compatible chat completions: OpenAI, Ollama's /v1, LM Studio, vLLM, llama.cpp, OpenRouter. */
    OPENAI("OPENAI_API_KEY", "OPENAI_BASE_URL", "http://localhost:11434/v1"),
    /** Ollama's native /api/chat, for model options the /v1 endpoint does not pass. */
    OLLAMA("OLLAMA_API_KEY", null, "http://localhost:11434"),
    /** Anthropic's messages API. */
    ANTHROPIC("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "https://api.anthropic.com");

    private final String keyVariable;
    private final String baseUrlVariable;
    private final String defaultBaseUrl;

    Provider(String keyVariable, String baseUrlVariable, String defaultBaseUrl) {
        this.keyVariable = keyVariable;
        this.baseUrlVariable = baseUrlVariable;
        this.defaultBaseUrl = defaultBaseUrl;
    }

    /** The name in agent.toml: openai, ollama, anthropic. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Provider fromConfigName(String name) {
        return valueOf(name.strip().toUpperCase(Locale.ROOT));
    }

    /** The variable its key is read from when nothing names another: OPENAI_API_KEY, OLLAMA_API_KEY, ANTHROPIC_API_KEY. */
    public String keyVariable() {
        return keyVariable;
    }

    /** The provider's own base-URL variable (OPENAI_BASE_URL, ANTHROPIC_BASE_URL), or null (Ollama: OLLAMA_HOST). */
    public String baseUrlVariable() {
        return baseUrlVariable;
    }

    /** Its base URL when nothing sets one and OLLAMA_HOST does not apply. */
    public String defaultBaseUrl() {
        return defaultBaseUrl;
    }
}
