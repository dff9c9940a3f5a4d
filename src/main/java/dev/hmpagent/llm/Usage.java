package dev.hmpagent.llm;

/**
 * Token counts of one call. {@code estimated} is true when the server sent no usage and the
 * numbers come from {@link TokenEstimator}; counts are never 0 for a real call. {@code cachedTokens} is the part of
 * {@code promptTokens} the server read from its prompt cache (OpenAI's {@code prompt_tokens_details.cached_tokens},
 * Anthropic's {@code cache_read_input_tokens}); 0 when it read none or does not say.
 */
public record Usage(int promptTokens, int completionTokens, boolean estimated, int cachedTokens) {
    public Usage {
        if (promptTokens < 0 || completionTokens < 0 || cachedTokens < 0) {
            throw new IllegalArgumentException("negative token count");
        }
        if (cachedTokens > promptTokens) throw new IllegalArgumentException("more cached tokens than prompt tokens");
    }

    /** Counts with no cached prompt tokens. */
    public Usage(int promptTokens, int completionTokens, boolean estimated) {
        this(promptTokens, completionTokens, estimated, 0);
    }

    public int total() { return promptTokens + completionTokens; }
}
