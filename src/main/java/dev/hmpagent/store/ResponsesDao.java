package dev.hmpagent.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** {@code llm_recent_responses}: the LLM's replies (context 1). */
public final class ResponsesDao {
    private static final String COLUMNS = "id, coalesce(tick_id, 0), content, reflection, novelty_score, "
            + "coalesce(prompt_tokens, 0), coalesce(completion_tokens, 0), tokens_estimated, interrupted, stagnation, "
            + "llm_id, timestamp";
    private final Store store;

    public ResponsesDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * What step 5 found about a reply: the HMP idea lists, how it compared ({@code method}: none, local, llm,
     * hybrid:local, hybrid:llm; {@code verdict}: new, same, unknown), the comparison call's tokens, and the SHA-256
     * of the normalised text (null: none) by which an exact repeat of an earlier reply is found.
     */
    public record Compared(List<String> newIdeas, List<String> refinedIdeas, List<String> discardedIdeas, String method,
                           String verdict, int tokens, String contentHash) {
        /** Not compared (a reply cut short, a marker row). */
        public static final Compared NONE = new Compared(List.of(), List.of(), List.of(), "none", "unknown", 0, null);

        public Compared {
            newIdeas = List.copyOf(newIdeas);
            refinedIdeas = List.copyOf(refinedIdeas);
            discardedIdeas = List.copyOf(discardedIdeas);
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(verdict, "verdict");
        }
    }

    public long add(long tickId, String content, String reflection, Double noveltyScore, int promptTokens,
                    int completionTokens, boolean estimated, boolean interrupted, boolean stagnation, String llmId) {
        return add(tickId, content, reflection, noveltyScore, promptTokens, completionTokens, estimated, interrupted,
                stagnation, llmId, Compared.NONE);
    }

    public long add(long tickId, String content, String reflection, Double noveltyScore, int promptTokens,
                    int completionTokens, boolean estimated, boolean interrupted, boolean stagnation, String llmId,
                    Compared compared) {
        return store.insert("INSERT INTO llm_recent_responses(timestamp, role, content, llm_id, reflection, novelty_score, "
                        + "new_ideas, refined_ideas, discarded_ideas, tick_id, prompt_tokens, completion_tokens, "
                        + "tokens_estimated, interrupted, stagnation, comparison_method, comparison_verdict, "
                        + "comparison_tokens, content_hash) "
                        + "VALUES (?, 'assistant', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                store.now(), content, llmId, reflection, noveltyScore, NoteTags.toJson(compared.newIdeas()),
                NoteTags.toJson(compared.refinedIdeas()), NoteTags.toJson(compared.discardedIdeas()), tickId,
                promptTokens, completionTokens, estimated, interrupted, stagnation, compared.method(),
                compared.verdict(), compared.tokens(), compared.contentHash());
    }

    /** The comparison a model made of the reply of {@code tickId} after it was written (issue 35). */
    public void judged(long tickId, Compared compared, double noveltyScore, String reflection) {
        store.update("UPDATE llm_recent_responses SET novelty_score = ?, new_ideas = ?, refined_ideas = ?, "
                        + "discarded_ideas = ?, comparison_method = ?, comparison_verdict = ?, comparison_tokens = ?, "
                        + "reflection = ? WHERE tick_id = ? AND role = 'assistant'",
                noveltyScore, NoteTags.toJson(compared.newIdeas()), NoteTags.toJson(compared.refinedIdeas()),
                NoteTags.toJson(compared.discardedIdeas()), compared.method(), compared.verdict(), compared.tokens(),
                reflection, tickId);
    }

    /**
     * The tick of the newest of the last {@code window} full replies whose normalised text has this hash (an exact
     * repeat), if any. The newest full reply of that hash is found by its index and kept when fewer than {@code window}
     * full replies came after it: reading the last {@code window} rows' hashes instead read past each row's text (the hash
     * is the table's last column), ~100 µs a tick (issue 36).
     */
    public Optional<Long> tickWithHash(String contentHash, int window) {
        if (window <= 0) return Optional.empty();
        // only the newest full reply of that hash: when it is not among the last {@code window}, no older one is
        return store.queryOne("SELECT r.tick_id FROM (SELECT id, tick_id FROM llm_recent_responses WHERE content_hash = ?"
                + " AND stagnation = 0 AND interrupted = 0 ORDER BY id DESC LIMIT 1) r WHERE (SELECT count(*) FROM"
                + " (SELECT 1 FROM llm_recent_responses x WHERE x.id > r.id AND x.stagnation = 0 AND x.interrupted = 0"
                + " LIMIT ?)) < ?", rs -> rs.getLong(1), contentHash, window, window);
    }

    /** A reply as context 1 shows it: its tick, its novelty and flags, its reflection and its text. */
    public record Shown(long id, long tickId, String content, String reflection, Double noveltyScore,
                        boolean interrupted, boolean stagnation) { }

    /**
     * The last {@code k} rows as context 1 shows them, oldest first: only the columns it shows are read (every tick,
     * up to 20 rows).
     */
    public List<Shown> window(int k) {
        List<Shown> rows = new ArrayList<>(store.query("SELECT id, coalesce(tick_id, 0), content, reflection,"
                + " novelty_score, interrupted, stagnation FROM llm_recent_responses ORDER BY id DESC LIMIT ?", rs -> {
                    return new Shown(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4), novelty(rs),
                            rs.getInt(6) != 0, rs.getInt(7) != 0);
                }, k));
        Collections.reverse(rows);
        return rows;
    }

    /** The last {@code k} rows, oldest first. */
    public List<ResponseRow> latest(int k) {
        List<ResponseRow> rows = new ArrayList<>(store.query(
                "SELECT " + COLUMNS + " FROM llm_recent_responses ORDER BY id DESC LIMIT ?", ResponsesDao::map, k));
        Collections.reverse(rows);
        return rows;
    }

    /** The latest full reply (not a stagnation marker), to compare the next one with. */
    public Optional<ResponseRow> lastReply() {
        return store.queryOne("SELECT " + COLUMNS + " FROM llm_recent_responses WHERE stagnation = 0 "
                + "AND role = 'assistant' ORDER BY id DESC LIMIT 1", ResponsesDao::map);
    }

    /**
     * Deletes replies of ticks at or before {@code upToTick} and, when {@code before} is not empty, written
     * before it; returns how many.
     */
    public int deleteUpTo(long upToTick, String before) {
        return store.update("DELETE FROM llm_recent_responses WHERE tick_id IS NOT NULL AND tick_id <= ? "
                + "AND (? = '' OR timestamp < ?)", upToTick, before, before);
    }

    private static ResponseRow map(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new ResponseRow(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4), novelty(rs),
                rs.getInt(6), rs.getInt(7), rs.getInt(8) != 0, rs.getInt(9) != 0, rs.getInt(10) != 0,
                rs.getString(11), rs.getString(12));
    }

    /** The fifth column, {@code novelty_score}: null while the reply was not compared. */
    private static Double novelty(java.sql.ResultSet rs) throws java.sql.SQLException {
        double novelty = rs.getDouble(5);
        return rs.wasNull() ? null : novelty;
    }
}
