package dev.hmpagent.stagnation;

/**
 * How new a reply is next to the previous one.
 *
 * @param score     1 = nothing shared, 0 = the same text
 * @param identical the two replies are the same after normalising (case, spacing, punctuation)
 */
public record Novelty(double score, boolean identical) {
    public Novelty {
        if (score < 0 || score > 1) throw new IllegalArgumentException("score must be in 0..1");
    }
}
