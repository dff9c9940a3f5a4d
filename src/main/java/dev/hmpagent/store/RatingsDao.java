package dev.hmpagent.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code stagnation_strategies}, {@code thinking_methods} and the {@code ratings} of them. A rating's triggers (V001)
 * keep each strategy's or method's {@code reputation} at the average of its ratings.
 */
public final class RatingsDao {
    /**
     * What a rating is about: the {@code target_type} value, the table it points into, and its scale, the same for
     * every rater so a reputation (the average) is comparable: a strategy is rated -1 (did not help), 0 or +1
     * (helped), by the anti-stagnation reflex's rule and by the LLM alike, so an unrated strategy's reputation 0 is
     * neutral; a thinking method 1 (useless) to 5 (very useful).
     */
    public enum Target {
        STAGNATION_STRATEGY("stagnation_strategy", "stagnation_strategies", -1, 1),
        THINKING_METHOD("thinking_method", "thinking_methods", 1, 5);

        private final String type;
        private final String table;
        private final int min;
        private final int max;

        Target(String type, String table, int min, int max) {
            this.type = type;
            this.table = table;
            this.min = min;
            this.max = max;
        }

        public String type() { return type; }

        /** The lowest rating of this target's scale. */
        public int min() { return min; }

        /** The highest rating of this target's scale. */
        public int max() { return max; }

        /** "-1 to +1" or "1 to 5". */
        public String scale() {
            return min + " to " + (min < 0 ? "+" : "") + max;
        }

        public static Optional<Target> of(String type) {
            for (Target t : values()) {
                if (t.type.equals(type)) return Optional.of(t);
            }
            return Optional.empty();
        }
    }

    /** A strategy or a thinking method; {@code type} is empty for strategies. */
    public record Rated(long id, String name, String description, String type, String source, String tags,
                        double reputation, boolean active, String inactiveReason) { }

    public record Rating(long id, String agentId, String targetType, long targetId, String targetName, int rating,
                         String comment, String timestamp) { }

    private static final String RATED = "id, name, description, %s, coalesce(source, ''), coalesce(tags, ''), "
            + "coalesce(reputation, 0), coalesce(active, 1), coalesce(inactive_reason, '') FROM %s ORDER BY id";

    private final Store store;

    public RatingsDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    public List<Rated> strategies() {
        return store.query("SELECT " + String.format(RATED, "''", Target.STAGNATION_STRATEGY.table), RatingsDao::rated);
    }

    public List<Rated> thinkingMethods() {
        return store.query("SELECT " + String.format(RATED, "coalesce(type, '')", Target.THINKING_METHOD.table),
                RatingsDao::rated);
    }

    /** The name of the strategy or method rated, if it exists. */
    public Optional<String> nameOf(Target target, long id) {
        return store.queryOne("SELECT name FROM " + target.table + " WHERE id = ?", rs -> rs.getString(1), id);
    }

    public long add(String agentId, Target target, long targetId, int rating, String comment) {
        if (rating < target.min || rating > target.max) {
            throw new IllegalArgumentException("rating out of range " + target.scale() + ": " + rating);
        }
        return store.insert("INSERT INTO ratings(agent_id, target_type, target_id, rating, comment, timestamp) "
                + "VALUES (?, ?, ?, ?, ?, ?)", agentId, target.type, targetId, rating, comment, store.now());
    }

    public double reputation(Target target, long id) {
        return store.queryOne("SELECT coalesce(reputation, 0) FROM " + target.table + " WHERE id = ?",
                rs -> rs.getDouble(1), id).orElse(0.0);
    }

    /** The newest ratings first, of one target type and id when given (either may be null). */
    public List<Rating> ratings(Target target, Long targetId, int limit) {
        List<Object> params = new ArrayList<>();
        StringBuilder where = new StringBuilder(" WHERE 1 = 1");
        if (target != null) {
            where.append(" AND r.target_type = ?");
            params.add(target.type);
        }
        if (targetId != null) {
            where.append(" AND r.target_id = ?");
            params.add(targetId);
        }
        params.add(limit);
        return store.query("SELECT r.id, r.agent_id, r.target_type, r.target_id, coalesce(CASE r.target_type "
                + "WHEN 'stagnation_strategy' THEN (SELECT name FROM stagnation_strategies WHERE id = r.target_id) "
                + "WHEN 'thinking_method' THEN (SELECT name FROM thinking_methods WHERE id = r.target_id) END, '?'), "
                + "r.rating, coalesce(r.comment, ''), r.timestamp FROM ratings r" + where + " ORDER BY r.id DESC LIMIT ?",
                rs -> new Rating(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getLong(4), rs.getString(5),
                        rs.getInt(6), rs.getString(7), rs.getString(8)), params.toArray());
    }

    private static Rated rated(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new Rated(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getString(6), rs.getDouble(7), rs.getInt(8) != 0, rs.getString(9));
    }
}
