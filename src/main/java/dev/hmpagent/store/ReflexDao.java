package dev.hmpagent.store;

import java.util.List;
import java.util.Objects;

/**
 * The anti-stagnation reflex's tables: {@code reflex_state} (the knobs it turns, read with each tick's settings),
 * {@code reflex_items} (text it adds to the next prompts), {@code reflex_firings} (what fired, and how it was rated),
 * and the strategy catalogue with each strategy's class, cost and effect.
 */
public final class ReflexDao {
    /**
     * The knobs, null where the configured value applies.
     *
     * @param historyK     replies context 1 shows instead of the configured number, until tick {@code historyUntil}
     * @param questions    questions asked the person since they last wrote
     * @param slowed       the reflex slowed the agent down for want of an answer
     * @param episode      the stagnation episode in force (the tick it was first detected), 0 when none
     * @param rounds       firings in that episode so far
     * @param frozenTaskId the task a task switch froze (0 when none), its status before, the task pinned instead and
     *                     when to return (ISO instant)
     */
    public record State(Double temperature, Double presencePenalty, Double frequencyPenalty, Integer historyK,
                        long historyUntil, int questions, boolean slowed, long episode, int rounds, long frozenTaskId,
                        String frozenStatus, long switchedTaskId, String returnAt) {
        public static final State NONE = new State(null, null, null, null, 0, 0, false, 0, 0, 0, null, 0, null);

        public State withGeneration(Double t, Double presence, Double frequency) {
            return new State(t, presence, frequency, historyK, historyUntil, questions, slowed, episode, rounds,
                    frozenTaskId, frozenStatus, switchedTaskId, returnAt);
        }

        public State withHistory(Integer k, long until) {
            return new State(temperature, presencePenalty, frequencyPenalty, k, until, questions, slowed, episode,
                    rounds, frozenTaskId, frozenStatus, switchedTaskId, returnAt);
        }

        public State withQuestions(int asked, boolean slowedDown) {
            return new State(temperature, presencePenalty, frequencyPenalty, historyK, historyUntil, asked, slowedDown,
                    episode, rounds, frozenTaskId, frozenStatus, switchedTaskId, returnAt);
        }

        public State withEpisode(long firstTick, int firings) {
            return new State(temperature, presencePenalty, frequencyPenalty, historyK, historyUntil, questions, slowed,
                    firstTick, firings, frozenTaskId, frozenStatus, switchedTaskId, returnAt);
        }

        public State withTaskSwitch(long frozen, String status, long switched, String at) {
            return new State(temperature, presencePenalty, frequencyPenalty, historyK, historyUntil, questions, slowed,
                    episode, rounds, frozen, status, switched, at);
        }

        /** Whether a generation parameter differs from the configured ones. */
        public boolean tuned() {
            return temperature != null || presencePenalty != null || frequencyPenalty != null;
        }
    }

    /** A text the reflex adds to context {@code context} (1 or 3) of the prompts up to tick {@code untilTick}. */
    public record Item(long id, long tickId, String strategy, int context, String text, long untilTick) { }

    /** A strategy of the catalogue with what the reflex needs to choose it. */
    public record CatalogueEntry(long id, String name, String description, String strategyClass, int cost,
                                 String effect, double reputation, boolean rated, boolean active, String inactiveReason) { }

    /** A strategy fired, as recorded. */
    public record Firing(long id, long tickId, long episode, int round, int position, long strategyId, String strategy,
                         String strategyClass, String diagnosis, String effect, Double noveltyBefore,
                         Double noveltyAfter, Integer rating, Long ratedAtTick) { }

    private final Store store;

    public ReflexDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    public State state() {
        return store.queryOneKept("SELECT temperature, presence_penalty, frequency_penalty, history_k, "
                + "coalesce(history_until, 0), questions, slowed, coalesce(episode, 0), rounds, coalesce(frozen_task_id, 0), "
                + "frozen_status, coalesce(switched_task_id, 0), return_at FROM reflex_state WHERE id = 1", rs -> new State(
                        real(rs, 1), real(rs, 2), real(rs, 3), whole(rs, 4), rs.getLong(5), rs.getInt(6), rs.getInt(7) != 0,
                        rs.getLong(8), rs.getInt(9), rs.getLong(10), rs.getString(11), rs.getLong(12), rs.getString(13)))
                .orElse(State.NONE);
    }

    public void save(State s) {
        store.update("INSERT INTO reflex_state(id, temperature, presence_penalty, frequency_penalty, history_k, "
                        + "history_until, questions, slowed, episode, rounds, frozen_task_id, frozen_status, switched_task_id, "
                        + "return_at) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET "
                        + "temperature = excluded.temperature, presence_penalty = excluded.presence_penalty, "
                        + "frequency_penalty = excluded.frequency_penalty, history_k = excluded.history_k, "
                        + "history_until = excluded.history_until, questions = excluded.questions, slowed = excluded.slowed, "
                        + "episode = excluded.episode, rounds = excluded.rounds, frozen_task_id = excluded.frozen_task_id, "
                        + "frozen_status = excluded.frozen_status, switched_task_id = excluded.switched_task_id, "
                        + "return_at = excluded.return_at",
                s.temperature(), s.presencePenalty(), s.frequencyPenalty(), s.historyK(), s.historyUntil(),
                s.questions(), s.slowed(), s.episode() == 0 ? null : s.episode(), s.rounds(),
                s.frozenTaskId() == 0 ? null : s.frozenTaskId(), s.frozenStatus(),
                s.switchedTaskId() == 0 ? null : s.switchedTaskId(), s.returnAt());
    }

    public long addItem(long tickId, String strategy, int context, String text, long untilTick) {
        return store.insert("INSERT INTO reflex_items(tick_id, strategy, context, text, until_tick) VALUES (?, ?, ?, ?, ?)",
                tickId, strategy, context, text, untilTick);
    }

    /** The items still in force at {@code tickId}, oldest first. */
    public List<Item> items(long tickId) {
        return store.query("SELECT id, tick_id, strategy, context, text, until_tick FROM reflex_items "
                + "WHERE until_tick >= ? ORDER BY id", rs -> new Item(rs.getLong(1), rs.getLong(2), rs.getString(3),
                rs.getInt(4), rs.getString(5), rs.getLong(6)), tickId);
    }

    /** Ends the items added before {@code tickId} (a novel reply came: they did their work); returns how many. */
    public int clearItemsBefore(long tickId) {
        return store.update("DELETE FROM reflex_items WHERE tick_id < ?", tickId);
    }

    /** Drops items that ended before {@code tickId}. */
    public int dropItemsBefore(long tickId) {
        return store.update("DELETE FROM reflex_items WHERE until_tick < ?", tickId);
    }

    /** The catalogue, with whether each strategy has any rating. */
    public List<CatalogueEntry> catalogue() {
        return store.query("SELECT s.id, s.name, s.description, coalesce(s.class, ''), coalesce(s.cost, 2), "
                + "coalesce(s.effect, ''), coalesce(s.reputation, 0), EXISTS (SELECT 1 FROM ratings r WHERE "
                + "r.target_type = 'stagnation_strategy' AND r.target_id = s.id), coalesce(s.active, 1), "
                + "coalesce(s.inactive_reason, '') FROM stagnation_strategies s ORDER BY s.id", rs -> new CatalogueEntry(
                rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getInt(5), rs.getString(6),
                rs.getDouble(7), rs.getInt(8) != 0, rs.getInt(9) != 0, rs.getString(10)));
    }

    public long recordFiring(Firing f) {
        return store.insert("INSERT INTO reflex_firings(timestamp, tick_id, episode, round, position, strategy_id, strategy, "
                        + "class, diagnosis, effect, novelty_before) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                store.now(), f.tickId(), f.episode(), f.round(), f.position(), f.strategyId(), f.strategy(),
                f.strategyClass(), f.diagnosis(), f.effect(), f.noveltyBefore());
    }

    /** Firings not yet rated, oldest first. */
    public List<Firing> unrated() {
        return store.query(FIRING + " WHERE rating IS NULL ORDER BY id", ReflexDao::firing);
    }

    /** The firings of one episode, oldest first. */
    public List<Firing> ofEpisode(long episode) {
        return store.query(FIRING + " WHERE episode = ? ORDER BY id", ReflexDao::firing, episode);
    }

    /** The newest firings first. */
    public List<Firing> latest(int limit) {
        return store.query(FIRING + " ORDER BY id DESC LIMIT ?", ReflexDao::firing, limit);
    }

    public void rate(long firingId, int rating, double noveltyAfter, long atTick) {
        store.update("UPDATE reflex_firings SET rating = ?, novelty_after = ?, rated_at_tick = ? WHERE id = ?", rating,
                noveltyAfter, atTick, firingId);
    }

    /** How the novelty went in the LLM ticks after {@code tickId}, oldest first (the rating rule reads it). */
    public List<Double> noveltiesAfter(long tickId, int limit) {
        return store.query("SELECT coalesce(novelty_score, 1) FROM anti_stagnation_metrics WHERE tick_id > ? "
                + "ORDER BY id LIMIT ?", rs -> rs.getDouble(1), tickId, limit);
    }

    private static final String FIRING = "SELECT id, tick_id, episode, round, position, strategy_id, strategy, class, "
            + "diagnosis, effect, novelty_before, novelty_after, rating, rated_at_tick FROM reflex_firings";

    private static Firing firing(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new Firing(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getInt(4), rs.getInt(5), rs.getLong(6),
                rs.getString(7), rs.getString(8), rs.getString(9), rs.getString(10), real(rs, 11), real(rs, 12),
                whole(rs, 13), wholeLong(rs, 14));
    }

    private static Double real(java.sql.ResultSet rs, int i) throws java.sql.SQLException {
        double v = rs.getDouble(i);
        return rs.wasNull() ? null : v;
    }

    private static Integer whole(java.sql.ResultSet rs, int i) throws java.sql.SQLException {
        int v = rs.getInt(i);
        return rs.wasNull() ? null : v;
    }

    private static Long wholeLong(java.sql.ResultSet rs, int i) throws java.sql.SQLException {
        long v = rs.getLong(i);
        return rs.wasNull() ? null : v;
    }
}
