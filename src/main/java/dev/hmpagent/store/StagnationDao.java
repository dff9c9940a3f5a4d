package dev.hmpagent.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * {@code anti_stagnation_metrics}: one row per LLM-calling tick that got a reply (what step 5 found and the signs
 * of stagnation read from it), and the rows recording that the identical-reply reflex fired.
 */
public final class StagnationDao {
    /**
     * One LLM-calling tick as the signs of stagnation see it.
     *
     * @param comparedWith  the earlier reply compared with (its llm_recent_responses id), 0 for the first reply
     * @param repeatOfTick  an earlier reply (within the window) this one equals word for word, 0 if none
     * @param stimulus      a new note or process result was shown
     * @param personMessage a person's new message was shown
     * @param graphMark     "max concept id/max link id" when the tick began: growth is a change of it
     * @param signs         the signs that held, one phrase each ("" when none)
     * @param progress      the reply came after news from the world: a command's new result
     */
    public record Metric(long tickId, long comparedWith, double novelty, String method, String verdict, int tokens,
                         boolean identical, long repeatOfTick, boolean stimulus, boolean personMessage,
                         String graphMark, boolean stagnant, String signs, boolean reflexFired, String strategy,
                         boolean progress) {
        public Metric {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(verdict, "verdict");
            Objects.requireNonNull(graphMark, "graphMark");
            Objects.requireNonNull(signs, "signs");
        }
    }

    private static final String COLUMNS = "tick_id, coalesce(response_id, 0), coalesce(novelty_score, 1), "
            + "coalesce(method, ''), coalesce(verdict, 'unknown'), comparison_tokens, identical, repeat_of_tick, "
            + "stimulus, person_message, coalesce(graph_mark, ''), stagnant, coalesce(signs, ''), reflex_fired, "
            + "coalesce(strategy, ''), progress";

    private final Store store;

    public StagnationDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    public long record(Metric m) {
        return store.insert("INSERT INTO anti_stagnation_metrics(timestamp, tick_id, response_id, novelty_score, method, "
                        + "verdict, comparison_tokens, identical, repeat_of_tick, stimulus, person_message, graph_mark, "
                        + "stagnant, signs, reflex_fired, strategy, progress) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                store.now(), m.tickId(), m.comparedWith() == 0 ? null : m.comparedWith(), m.novelty(), m.method(),
                m.verdict(), m.tokens(), m.identical(), m.repeatOfTick(), m.stimulus(), m.personMessage(),
                m.graphMark(), m.stagnant(), m.signs().isEmpty() ? null : m.signs(), m.reflexFired(),
                m.strategy().isEmpty() ? null : m.strategy(), m.progress());
    }

    /** The comparison a model made of the reply of {@code tickId} after its row was written (issue 35). */
    public void judged(long tickId, double novelty, String method, String verdict, int tokens) {
        store.update("UPDATE anti_stagnation_metrics SET novelty_score = ?, method = ?, verdict = ?, "
                + "comparison_tokens = ? WHERE tick_id = ?", novelty, method, verdict, tokens, tickId);
    }

    /** Marks the tick's row stagnant with the signs that held (and the strategies fired, "" when none). */
    public void markStagnant(long tickId, String signs, String strategies) {
        store.update("UPDATE anti_stagnation_metrics SET stagnant = 1, signs = ?, strategy = coalesce(?, strategy) "
                + "WHERE tick_id = ?", signs, strategies.isEmpty() ? null : strategies, tickId);
    }

    /** The last {@code n} rows, oldest first. */
    public List<Metric> latest(int n) {
        List<Metric> rows = new ArrayList<>(store.query("SELECT " + COLUMNS + " FROM anti_stagnation_metrics "
                + "ORDER BY id DESC LIMIT ?", StagnationDao::map, n));
        Collections.reverse(rows);
        return rows;
    }

    /** How many times the identical-reply reflex fired. */
    public long reflexCount() {
        return store.queryLong("SELECT count(*) FROM anti_stagnation_metrics WHERE reflex_fired = 1");
    }

    /** "max concept id/max link id" now: a change of it between two ticks means the graph grew. */
    public String graphMark() {
        return store.queryOneKept("SELECT (SELECT coalesce(max(id), 0) FROM concepts) || '/' || "
                + "(SELECT coalesce(max(id), 0) FROM links)", rs -> rs.getString(1)).orElse("0/0");
    }

    private static Metric map(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new Metric(rs.getLong(1), rs.getLong(2), rs.getDouble(3), rs.getString(4), rs.getString(5), rs.getInt(6),
                rs.getInt(7) != 0, rs.getLong(8), rs.getInt(9) != 0, rs.getInt(10) != 0, rs.getString(11),
                rs.getInt(12) != 0, rs.getString(13), rs.getInt(14) != 0, rs.getString(15), rs.getInt(16) != 0);
    }
}
