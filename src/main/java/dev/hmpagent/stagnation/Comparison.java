package dev.hmpagent.stagnation;

import dev.hmpagent.llm.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * How the new reply differs from the previous one.
 *
 * @param verdict        NEW when the new reply holds new thoughts or commands, SAME when it does not,
 *                       UNKNOWN when the model's answer could not be read or its call failed
 * @param novelty        0 = the same reply, 1 = all new
 * @param newIdeas       ideas of the new reply absent from the previous one (at most a few, short)
 * @param refinedIdeas   ideas of the previous reply the new one develops or rewords
 * @param discardedIdeas ideas of the previous reply the new one drops
 * @param method         how it was judged: {@code none} (first reply), {@code local}, {@code llm},
 *                       {@code hybrid:local}, {@code hybrid:llm}; the method tried, even when its answer was garbage
 * @param usage          tokens of the comparison call; zero, not estimated, when there was none
 * @param identical      the two replies are equal after normalising (case, spacing, punctuation, NFKC), always
 *                       judged locally; an identical comparison is SAME with novelty 0
 */
public record Comparison(Verdict verdict, double novelty, List<String> newIdeas, List<String> refinedIdeas,
                         List<String> discardedIdeas, String method, Usage usage, boolean identical) {

    public enum Verdict { NEW, SAME, UNKNOWN }

    public static final String NONE = "none";
    public static final String LOCAL = "local";
    public static final String LLM = "llm";
    public static final String HYBRID_LOCAL = "hybrid:local";
    public static final String HYBRID_LLM = "hybrid:llm";
    private static final Set<String> METHODS = Set.of(NONE, LOCAL, LLM, HYBRID_LOCAL, HYBRID_LLM);

    /** The usage of a comparison that made no call. */
    static final Usage NO_CALL = new Usage(0, 0, false);

    public Comparison {
        Objects.requireNonNull(verdict, "verdict");
        if (!(novelty >= 0.0 && novelty <= 1.0)) throw new IllegalArgumentException("novelty must be in 0..1: " + novelty);
        newIdeas = List.copyOf(Objects.requireNonNull(newIdeas, "newIdeas"));
        refinedIdeas = List.copyOf(Objects.requireNonNull(refinedIdeas, "refinedIdeas"));
        discardedIdeas = List.copyOf(Objects.requireNonNull(discardedIdeas, "discardedIdeas"));
        Objects.requireNonNull(method, "method");
        if (!METHODS.contains(method)) throw new IllegalArgumentException("method must be one of " + METHODS + ": " + method);
        Objects.requireNonNull(usage, "usage");
        if (identical && (verdict != Verdict.SAME || novelty != 0.0)) {
            throw new IllegalArgumentException("an identical reply is SAME with novelty 0");
        }
    }

    /** The first reply of a run: nothing to compare it with, so all of it is new. */
    public static Comparison first() {
        return new Comparison(Verdict.NEW, 1.0, List.of(), List.of(), List.of(), NONE, NO_CALL, false);
    }

    /** Two replies equal after normalising, judged by {@code method} without a call. */
    static Comparison identical(String method) {
        return new Comparison(Verdict.SAME, 0.0, List.of(), List.of(), List.of(), method, NO_CALL, true);
    }

    /** This comparison under another method and usage, everything else kept. */
    Comparison withMethod(String otherMethod, Usage otherUsage) {
        return new Comparison(verdict, novelty, newIdeas, refinedIdeas, discardedIdeas, otherMethod, otherUsage,
                identical);
    }

    /** Whether any of the three idea lists holds something. */
    boolean hasIdeas() {
        return !newIdeas.isEmpty() || !refinedIdeas.isEmpty() || !discardedIdeas.isEmpty();
    }

    /**
     * The HMP reflection: {@code "new ideas: a; b | refined ideas: c | discarded ideas: d"}, leaving out the
     * empty lists; "" when all three are empty.
     */
    public String reflection() {
        List<String> parts = new ArrayList<>(3);
        if (!newIdeas.isEmpty()) parts.add("new ideas: " + String.join("; ", newIdeas));
        if (!refinedIdeas.isEmpty()) parts.add("refined ideas: " + String.join("; ", refinedIdeas));
        if (!discardedIdeas.isEmpty()) parts.add("discarded ideas: " + String.join("; ", discardedIdeas));
        return String.join(" | ", parts);
    }
}
