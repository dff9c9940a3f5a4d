package dev.hmpagent.llm.anthropic;

/**
 * Token counts exactly as Anthropic reported them (may be zeros). {@code inputTokens} counts only the prompt tokens
 * after the last cache breakpoint; those read from or written to the cache are counted apart.
 */
record ServerUsage(int inputTokens, int cacheCreationTokens, int cacheReadTokens, int outputTokens) {
    static final ServerUsage NONE = new ServerUsage(0, 0, 0, 0);

    /** The whole prompt: uncached, written to the cache, and read from it. */
    int promptTokens() {
        return inputTokens + cacheCreationTokens + cacheReadTokens;
    }
}
