package dev.hmpagent.stagnation;

import dev.hmpagent.store.RatingsDao;
import dev.hmpagent.store.ReflexDao;
import dev.hmpagent.store.Store;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalInt;

/** The rating rule: +1 when novelty rose above the threshold within the rating ticks after a firing, else -1. */
final class FiringRater {
    private final ReflexDao reflex;
    private final RatingsDao ratings;
    private final double threshold;
    private final int ratingTicks;

    FiringRater(Store store, double threshold, int ratingTicks) {
        Objects.requireNonNull(store, "store");
        this.reflex = store.tables().reflex();
        this.ratings = store.tables().ratings();
        this.threshold = threshold;
        this.ratingTicks = ratingTicks;
    }

    /** Rates each firing whose rating ticks are over (or that already helped), at tick {@code tickId}. */
    void rate(long tickId, List<String> lines) {
        for (ReflexDao.Firing f : reflex.unrated()) {
            List<Double> after = reflex.noveltiesAfter(f.tickId(), ratingTicks);
            OptionalInt rating = StrategyRating.rate(threshold, ratingTicks, after);
            if (rating.isEmpty()) continue;
            int r = rating.getAsInt();
            double before = f.noveltyBefore() == null ? 0 : f.noveltyBefore();
            double best = after.stream().mapToDouble(Double::doubleValue).max().orElse(0);
            ratings.add(StagnationReflex.RATER, RatingsDao.Target.STAGNATION_STRATEGY, f.strategyId(), r,
                    String.format(Locale.ROOT, "%+d: novelty %.2f at tick %d, best %.2f in the %d LLM ticks after",
                            r, before, f.tickId(), best, after.size()));
            reflex.rate(f.id(), r, best, tickId);
            lines.add(String.format(Locale.ROOT, "anti-stagnation reflex: %s rated %+d (novelty %.2f → %.2f)",
                    f.strategy(), r, before, best));
        }
    }
}
