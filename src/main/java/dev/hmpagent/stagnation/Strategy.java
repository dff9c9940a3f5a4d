package dev.hmpagent.stagnation;

import java.util.Objects;

/**
 * One way out of stagnation from the catalogue ({@code stagnation_strategies}), as the planner needs it.
 *
 * @param id            the row id
 * @param name          its name
 * @param strategyClass its HMP class
 * @param cost          {@link #CHEAP} (1), {@link #MEDIUM} (2) or {@link #COSTLY} (3)
 * @param reputation    the average of its ratings (-1 did not help .. +1 helped); meaningless when not {@code rated}
 * @param rated         whether it has any rating
 * @param available     whether it may be used now (active, and its effect can be carried out)
 * @param effect        what firing it does here ({@link Effect#NONE}: nothing)
 */
record Strategy(long id, String name, StrategyClass strategyClass, int cost, double reputation, boolean rated,
                       boolean available, Effect effect) {
    public static final int CHEAP = 1;
    public static final int MEDIUM = 2;
    public static final int COSTLY = 3;
    /** What an unrated strategy counts as on the -1..+1 scale of strategy ratings: neither good nor bad. */
    public static final double NEUTRAL_REPUTATION = 0.0;

    public Strategy {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(strategyClass, "strategyClass");
        Objects.requireNonNull(effect, "effect");
        if (cost < CHEAP || cost > COSTLY) {
            throw new IllegalArgumentException("cost must be " + CHEAP + ".." + COSTLY + ", was " + cost + " (" + name + ")");
        }
        if (!Double.isFinite(reputation)) throw new IllegalArgumentException("reputation must be finite (" + name + ")");
    }

    /** The same strategy, not available now. */
    Strategy unavailable() {
        return new Strategy(id, name, strategyClass, cost, reputation, rated, false, effect);
    }

    /** The reputation it is ranked by: its own when rated, {@link #NEUTRAL_REPUTATION} when not. */
    public double rankingReputation() {
        return rated ? reputation : NEUTRAL_REPUTATION;
    }
}
