package dev.hmpagent.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Objects;

/**
 * {@code llm_calls}: one row per LLM call, and the tokens they spent per tick, since an instant (a session) and over
 * the file's life, each by model with the cached prompt tokens apart.
 */
public final class LlmCallsDao {
    /**
     * The {@code at} column: ISO-8601 UTC with exactly three fraction digits. {@link Store#format} leaves out a zero
     * fraction ({@code …:05Z} sorts after {@code …:05.250Z}); a fixed width keeps text order equal to time order.
     */
    private static final DateTimeFormatter AT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);
    private static final String COLUMNS = "purpose, at, model, endpoint, prompt_tokens, cached_tokens, "
            + "completion_tokens, estimated, duration_ms, outcome, error_kind";
    private static final String BY_MODEL = "SELECT model, count(*), coalesce(sum(prompt_tokens), 0), "
            + "coalesce(sum(cached_tokens), 0), coalesce(sum(completion_tokens), 0) FROM llm_calls ";

    /**
     * Tokens of one model's calls.
     *
     * @param promptTokens every prompt token, those read from the cache included
     * @param cachedTokens the part of them read from the provider's prompt cache
     */
    public record ModelTokens(String model, long calls, long promptTokens, long cachedTokens, long completionTokens) {
        public ModelTokens {
            Objects.requireNonNull(model, "model");
        }

        public long total() {
            return promptTokens + completionTokens;
        }
    }

    private final Store store;

    public LlmCallsDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** Writes the row of {@code call}, made for tick {@code tickId}; inside the transaction that records the call. */
    public void insert(long tickId, LlmCall call) {
        store.insert("INSERT INTO llm_calls(tick_id, " + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                tickId, call.purpose().column(), at(call.at()), call.model(), call.endpoint(), call.promptTokens(),
                call.cachedTokens(), call.completionTokens(), call.estimated(), call.durationMs(),
                call.outcome().column(), call.errorKind().isEmpty() ? null : call.errorKind());
    }

    /** The calls of tick {@code tickId}, in the order they were written. */
    public List<LlmCall> ofTick(long tickId) {
        return store.query("SELECT " + COLUMNS + " FROM llm_calls WHERE tick_id = ? ORDER BY id", LlmCallsDao::call,
                tickId);
    }

    /** Tick {@code tickId}'s tokens by model (its main call, its comparison, the llm_tasks it asked for). */
    public List<ModelTokens> byModelOfTick(long tickId) {
        return store.query(BY_MODEL + "WHERE tick_id = ? GROUP BY model ORDER BY model", LlmCallsDao::tokens, tickId);
    }

    /** The tokens of the calls sent at or after {@code since} (a session: since the agent started), by model. */
    public List<ModelTokens> byModelSince(Instant since) {
        return store.query(BY_MODEL + "WHERE at >= ? GROUP BY model ORDER BY model", LlmCallsDao::tokens, at(since));
    }

    /** Main calls (the cycle's own, one a tick) sent at or after {@code since}: a task's calls, for its rate. */
    public long mainCallsSince(Instant since) {
        return store.queryLong("SELECT count(*) FROM llm_calls WHERE purpose = 'main' AND at >= ?", at(since));
    }

    /** Every call's tokens over the file's life, by model. */
    public List<ModelTokens> byModel() {
        return store.query(BY_MODEL + "GROUP BY model ORDER BY model", LlmCallsDao::tokens);
    }

    static String at(Instant instant) {
        return AT.format(instant);
    }

    private static ModelTokens tokens(ResultSet rs) throws SQLException {
        return new ModelTokens(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5));
    }

    private static LlmCall call(ResultSet rs) throws SQLException {
        String kind = rs.getString(11);
        return new LlmCall(LlmCall.Purpose.fromColumn(rs.getString(1)), Instant.parse(rs.getString(2)), rs.getString(3),
                rs.getString(4), rs.getInt(5), rs.getInt(6), rs.getInt(7), rs.getInt(8) != 0, rs.getLong(9),
                LlmCall.Outcome.fromColumn(rs.getString(10)), kind == null ? "" : kind);
    }
}
