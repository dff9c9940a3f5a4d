package dev.hmpagent.store;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

/**
 * One LLM call that reached a server or failed: an {@code llm_calls} row without its tick.
 *
 * @param at           when the request was sent
 * @param model        the model that answered, else the one asked
 * @param endpoint     where the request went (never a secret)
 * @param cachedTokens the part of {@code promptTokens} the server read from its prompt cache
 * @param estimated    the server sent no usage: the counts are estimates
 * @param errorKind    a failed call's kind ({@code "timeout"}, {@code "http_429"}, …), "" for the others
 */
public record LlmCall(Purpose purpose, Instant at, String model, String endpoint, int promptTokens, int cachedTokens,
                      int completionTokens, boolean estimated, long durationMs, Outcome outcome, String errorKind) {

    /** Why the call was made. */
    public enum Purpose {
        /** The tick's own call (HMP step 3). */
        MAIN,
        /** Step 5's comparison of the reply with the previous one. */
        COMPARISON,
        /** A delegated {@code llm_task}. */
        TASK;

        public String column() { return name().toLowerCase(Locale.ROOT); }

        static Purpose fromColumn(String s) { return valueOf(s.toUpperCase(Locale.ROOT)); }
    }

    /** How the call ended. */
    public enum Outcome {
        OK,
        /** Cancelled (Ctrl-C, a halt, a reply cut for repeating itself): what came is kept. */
        INTERRUPTED,
        ERROR;

        public String column() { return name().toLowerCase(Locale.ROOT); }

        static Outcome fromColumn(String s) { return valueOf(s.toUpperCase(Locale.ROOT)); }
    }

    public LlmCall {
        Objects.requireNonNull(purpose, "purpose");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(errorKind, "errorKind");
        if (promptTokens < 0 || cachedTokens < 0 || completionTokens < 0 || durationMs < 0) {
            throw new IllegalArgumentException("negative count");
        }
        if (cachedTokens > promptTokens) throw new IllegalArgumentException("more cached tokens than prompt tokens");
        boolean failed = outcome == Outcome.ERROR;
        if (failed == errorKind.isEmpty()) {
            throw new IllegalArgumentException("a failed call, and only a failed call, has an error kind");
        }
    }

    /**
     * The same call as an interrupted one with these counts: a call cancelled before its client could answer, which
     * the cycle keeps as an interrupted reply and counts with estimated tokens.
     */
    public LlmCall interrupted(int prompt, int completion, boolean estimate) {
        return new LlmCall(purpose, at, model, endpoint, prompt, 0, completion, estimate, durationMs,
                Outcome.INTERRUPTED, "");
    }
}
