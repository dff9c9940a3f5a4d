package dev.hmpagent.llm.ollama;

/**
 * The token counts of a final ({@code "done": true}) object exactly as the server sent them, each
 * {@link #NOT_SENT} when absent: {@code prompt_eval_count}, {@code eval_count} and {@code prompt_eval_cached_count}.
 */
record ServerCounts(int promptEvalCount, int evalCount, int promptEvalCachedCount) {
    /** A count the server did not send. */
    static final int NOT_SENT = -1;

    /** Whether the server sent any count at all. */
    boolean any() {
        return promptEvalCount != NOT_SENT || evalCount != NOT_SENT || promptEvalCachedCount != NOT_SENT;
    }
}
