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

    /**
     * A prompt token the server read from its cache counts as this share of one toward the token budgets: what
     * Anthropic charges for a cache read and OpenAI for a cached input token on its newer models (0.5 on older ones).
     */
    public static final int CACHED_TENTHS = 1;

    /**
     * What this call counts toward the token budgets: its uncached prompt and completion tokens in full, its cached
     * prompt tokens at {@link #CACHED_TENTHS} tenths, rounded up; {@link #total()} when the server reported no cache.
     */
    public int budgetTokens() {
        return promptTokens - cachedTokens + (cachedTokens * CACHED_TENTHS + 9) / 10 + completionTokens;
    }
}
