package dev.hmpagent.llm;

/** Receives reply text as it streams in. Called on the thread that called {@link LlmClient#complete}. */
@FunctionalInterface
public interface StreamListener {
    StreamListener NONE = delta -> { };

    void onDelta(String textDelta);
}
