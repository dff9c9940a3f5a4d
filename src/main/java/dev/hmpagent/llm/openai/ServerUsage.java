package dev.hmpagent.llm.openai;

/** Token counts exactly as a server reported them (may be zeros); {@code cachedTokens} of the prompt came from its cache. */
record ServerUsage(int promptTokens, int completionTokens, int cachedTokens) {
    ServerUsage(int promptTokens, int completionTokens) {
        this(promptTokens, completionTokens, 0);
    }
}
