package dev.hmpagent.stagnation;

import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * Step four of the HMP algorithm, "compare before and after": whether a strategy that fired brought new thoughts.
 * +1 as soon as one of the first {@code ratingTicks} LLM ticks after it reaches the novelty threshold; -1 once
 * {@code ratingTicks} have passed without that; undecided before.
 */
final class StrategyRating {
    public static final int HELPED = 1;
    public static final int DID_NOT_HELP = -1;

    private StrategyRating() {
    }

    /**
     * @param noveltyThreshold the novelty a reply must reach to count as new (as in {@link SignSettings})
     * @param ratingTicks      how many LLM ticks the strategy has to show an effect (at least 1)
     * @param noveltiesAfter   the novelty of each LLM tick after the strategy fired, oldest first
     * @return {@link #HELPED}, {@link #DID_NOT_HELP}, or empty while undecided
     */
    public static OptionalInt rate(double noveltyThreshold, int ratingTicks, List<Double> noveltiesAfter) {
        Objects.requireNonNull(noveltiesAfter, "noveltiesAfter");
        if (!(noveltyThreshold >= 0 && noveltyThreshold <= 1)) {
            throw new IllegalArgumentException("noveltyThreshold must be 0..1, was " + noveltyThreshold);
        }
        if (ratingTicks < 1) throw new IllegalArgumentException("ratingTicks must be at least 1, was " + ratingTicks);
        int seen = Math.min(ratingTicks, noveltiesAfter.size());
        for (int i = 0; i < seen; i++) {
            if (noveltiesAfter.get(i) >= noveltyThreshold) return OptionalInt.of(HELPED);
        }
        return seen == ratingTicks ? OptionalInt.of(DID_NOT_HELP) : OptionalInt.empty();
    }
}
