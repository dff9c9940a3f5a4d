package dev.hmpagent.llm;

/**
 * Token counts of one call. {@code estimated} is true when the server sent no usage and the
 * numbers come from {@link TokenEstimator}; counts are never 0 for a real call. {@code cachedTokens} is the part of
 * {@code promptTokens} the server read from its prompt cache (OpenAI's {@code prompt_tokens_details.cached_tokens},
 * Anthropic's {@code cache_read_input_tokens}, llama.cpp's {@code timings.cache_n}); 0 when it read none or does not
 * say. {@code cacheWriteTokens} is the part it wrote to its cache, which Anthropic charges above the input price
 * ({@code cache_creation_input_tokens}); 0 for the providers that write their cache for free.
 */
public record Usage(int promptTokens, int completionTokens, boolean estimated, int cachedTokens, int cacheWriteTokens) {
    public Usage {
        if (promptTokens < 0 || completionTokens < 0 || cachedTokens < 0 || cacheWriteTokens < 0) {
            throw new IllegalArgumentException("negative token count");
        }
        if (cachedTokens + (long) cacheWriteTokens > promptTokens) {
            throw new IllegalArgumentException("more cached tokens than prompt tokens");
        }
    }

    /** Counts with {@code cachedTokens} read from the cache and none written to it at a price. */
    public Usage(int promptTokens, int completionTokens, boolean estimated, int cachedTokens) {
        this(promptTokens, completionTokens, estimated, cachedTokens, 0);
    }

    /** Counts with no cached prompt tokens. */
    public Usage(int promptTokens, int completionTokens, boolean estimated) {
        this(promptTokens, completionTokens, estimated, 0, 0);
    }

    public int total() { return promptTokens + completionTokens; }

    /**
     * A prompt token the server read from its cache counts as this share of one toward the token budgets: what
     * Anthropic charges for a cache read and OpenAI for a cached input token on its newer models (0.5 on older ones).
     */
    public static final int CACHED_TENTHS = 1;

    /** A prompt token written to the cache costs this many quarters of one: Anthropic's price for a cache write. */
    public static final int CACHE_WRITE_QUARTERS = 5;

    /**
     * What this call counts toward the token budgets, as the provider charges for it: its uncached prompt and
     * completion tokens in full, its cached prompt tokens at {@link #CACHED_TENTHS} tenths and those written to the
     * cache at {@link #CACHE_WRITE_QUARTERS} quarters, each rounded up; {@link #total()} when the server reported no
     * cache.
     */
    public int budgetTokens() {
        int plain = promptTokens - cachedTokens - cacheWriteTokens;
        return plain + (cachedTokens * CACHED_TENTHS + 9) / 10 + (cacheWriteTokens * CACHE_WRITE_QUARTERS + 3) / 4
                + completionTokens;
    }
}
