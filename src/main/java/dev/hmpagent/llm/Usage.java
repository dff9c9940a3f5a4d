package dev.hmpagent.llm;

/**
 * Token counts of one call. {@code estimated} is true when the server sent no usage and the
 * numbers come from {@link TokenEstimator}; counts are never 0 for a real call.
 */
public record Usage(int promptTokens, int completionTokens, boolean estimated) {
    public Usage {
        if (promptTokens < 0 || completionTokens < 0) throw new IllegalArgumentException("negative token count");
    }

    public int total() { return promptTokens + completionTokens; }
}
