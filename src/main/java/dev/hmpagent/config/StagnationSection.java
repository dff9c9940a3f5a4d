package dev.hmpagent.config;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * The [stagnation] section: how the cycle notices that the agent goes round in circles (step 5 compares each reply
 * with the previous one) and what the anti-stagnation reflex may do about it. Set by agent.toml, env vars and flags.
 *
 * @param method           how a reply is compared with the previous one
 * @param model            model for the comparison mini-request (same endpoint and key as [llm]); empty = llm.model
 * @param maxTokens        most tokens of a comparison reply
 * @param nearIdentical    a local novelty below this is "the same" without asking the LLM (hybrid)
 * @param ambiguousHigh    hybrid asks the LLM only for a local novelty from {@code nearIdentical} up to this; above it
 *                         the reply is new without a call (at least {@code nearIdentical})
 * @param noveltyThreshold a novelty below this is low; at or above it the reply is novel (the reflex's tuning returns
 *                         to the configured values, a strategy that preceded it is rated up)
 * @param lowNoveltyTicks  this many low-novelty LLM ticks in a row are a sign of stagnation
 * @param repeatWindow     a reply word-for-word equal to one of the last this-many is a sign; 0 = off
 * @param noGrowthTicks    no new concept or link over this many LLM ticks is a sign; 0 = off
 * @param noStimulusTicks  no new note or process result over this many LLM ticks is a sign; 0 = off
 * @param reflex           run the reflex's strategies on stagnation; false = only compare and record
 * @param ratingTicks      a strategy is rated +1 when novelty rises above {@code noveltyThreshold} within this many LLM
 *                         ticks after it fired, -1 otherwise
 * @param maxQuestions     questions to the person left unanswered before the reflex stops asking and slows down
 * @param sleep            how long the "sleep" strategy idles the LLM
 * @param taskSwitch       how long the "task switch" strategy freezes the pinned task before returning to it
 * @param chantMinPeriod   the shortest chunk that counts as chanting inside one streamed reply
 * @param chantRepeats     the chunk repeated this many times in a row cancels the call
 */
public record StagnationSection(Method method, String model, int maxTokens, double nearIdentical, double ambiguousHigh,
                                double noveltyThreshold, int lowNoveltyTicks, int repeatWindow, int noGrowthTicks,
                                int noStimulusTicks, boolean reflex, int ratingTicks, int maxQuestions, Duration sleep,
                                Duration taskSwitch, int chantMinPeriod, int chantRepeats) {
    public StagnationSection {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(sleep, "sleep");
        Objects.requireNonNull(taskSwitch, "taskSwitch");
    }

    /** The model of the comparison mini-request: {@code model}, or {@code llmModel} when it is empty. */
    public String modelOr(String llmModel) {
        return model.isEmpty() ? Objects.requireNonNull(llmModel, "llmModel") : model;
    }

    /** How step 5 compares a reply with the previous one. */
    public enum Method {
        /** A mini-request to the LLM. */
        LLM,
        /** No LLM call: sentence diff and normalised similarity. */
        LOCAL,
        /** Local first; the LLM only in the ambiguous band. */
        HYBRID;

        /** The spelling used in files, env vars and flags ("llm", "local", "hybrid"). */
        public String configName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Parses a config spelling, case-insensitively. */
        public static Method fromConfigName(String text) {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        }
    }
}
