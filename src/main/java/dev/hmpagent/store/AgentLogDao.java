package dev.hmpagent.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** {@code agent_log}: one row per tick. */
public final class AgentLogDao {
    private static final String TICK_COLUMNS = "tick_id, started_at, ended_at, state, wake_reason, llm_called, "
            + "prompt_tokens, completion_tokens, commands_run, commands_failed, stagnation, error, comparison_tokens";
    /**
     * The tick's columns, then its latest reply row's text, whether a prompt is stored and its cached prompt tokens
     * (each by index).
     */
    private static final String LOGGED_COLUMNS = "a.tick_id, a.started_at, a.ended_at, a.state, a.wake_reason, "
            + "a.llm_called, a.prompt_tokens, a.completion_tokens, a.commands_run, a.commands_failed, a.stagnation, a.error, "
            + "a.comparison_tokens"
            + ", coalesce((SELECT r.content FROM llm_recent_responses r WHERE r.tick_id = a.tick_id "
            + "ORDER BY r.id DESC LIMIT 1), ''), EXISTS (SELECT 1 FROM tick_prompts p WHERE p.tick_id = a.tick_id)"
            // the cached part of prompt_tokens, which counts the main call's and the llm_tasks', not the comparison's
            + ", (SELECT coalesce(sum(c.cached_tokens), 0) FROM llm_calls c WHERE c.tick_id = a.tick_id "
            + "AND c.purpose <> 'comparison')";

    private final Store store;

    public AgentLogDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    public void insert(TickRecord t) {
        store.insert("INSERT INTO agent_log(tick_id, started_at, ended_at, duration_ms, state, wake_reason, llm_called, "
                        + "prompt_tokens, completion_tokens, commands_run, commands_failed, stagnation, error, "
                        + "comparison_tokens) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                t.tickId(), t.startedAt(), t.endedAt(), t.durationMs(), t.outcome(), t.wakeReason(), t.llmCalled(),
                t.promptTokens(), t.completionTokens(), t.commandsRun(), t.commandsFailed(), t.stagnation(), t.error(),
                t.comparisonTokens());
    }

    /** The tokens of a comparison made after the tick's row was written (issue 35). */
    public void addComparisonTokens(long tickId, int tokens) {
        if (tokens == 0) return;
        store.update("UPDATE agent_log SET comparison_tokens = comparison_tokens + ? WHERE tick_id = ?", tokens, tickId);
    }

    /** One more command of {@code tickId} finished (run by the executor after the tick's own row was written). */
    public void countCommand(long tickId, boolean failed) {
        store.update(failed ? "UPDATE agent_log SET commands_failed = commands_failed + 1 WHERE tick_id = ?"
                : "UPDATE agent_log SET commands_run = commands_run + 1 WHERE tick_id = ?", tickId);
    }

    /** Tokens spent for {@code tickId} after its row was written (a delegated {@code llm_task} call). */
    public void addTokens(long tickId, int prompt, int completion) {
        store.update("UPDATE agent_log SET prompt_tokens = prompt_tokens + ?, completion_tokens = completion_tokens + ? "
                + "WHERE tick_id = ?", prompt, completion, tickId);
    }

    /**
     * Records what the LLM layer told a person during {@code tickId} (a failover, an outage, a recovery) on its row,
     * after what it already holds.
     */
    public void addLlmNotice(long tickId, String text) {
        store.update("UPDATE agent_log SET llm_notice = CASE WHEN llm_notice IS NULL THEN ? ELSE llm_notice || char(10) || ? "
                + "END WHERE tick_id = ?", text, text, tickId);
    }

    /** The LLM layer's notices of {@code tickId}, or empty. */
    public java.util.Optional<String> llmNotice(long tickId) {
        return store.queryOne("SELECT llm_notice FROM agent_log WHERE tick_id = ? AND llm_notice IS NOT NULL",
                rs -> rs.getString(1), tickId);
    }

    public long lastTickId() {
        return store.queryLong("SELECT coalesce(max(tick_id), 0) FROM agent_log");
    }

    /** Prompt + completion tokens over all ticks. */
    public long totalTokens() {
        return store.queryLong("SELECT coalesce(sum(prompt_tokens + completion_tokens + comparison_tokens), 0) "
                + "FROM agent_log");
    }

    /** Tokens of a run of ticks, the main calls' prompt and completion apart from step 5's comparisons. */
    public record TokenSums(long prompt, long completion, long comparison, long llmCalls) {
        public static final TokenSums NONE = new TokenSums(0, 0, 0, 0);

        public long total() {
            return prompt + completion + comparison;
        }

        public TokenSums plus(TokenSums o) {
            return new TokenSums(prompt + o.prompt, completion + o.completion, comparison + o.comparison,
                    llmCalls + o.llmCalls);
        }
    }

    private static final String SUMS = "SELECT coalesce(sum(prompt_tokens), 0), coalesce(sum(completion_tokens), 0), "
            + "coalesce(sum(comparison_tokens), 0), coalesce(sum(llm_called), 0) FROM agent_log ";

    /** The tokens of the ticks after {@code tickId} (a range of the tick_id index). */
    public TokenSums tokensAfter(long tickId) {
        return sums("WHERE tick_id > ?", tickId);
    }

    /** The tokens of the ticks up to {@code tickId}, that one included. */
    public TokenSums tokensUpTo(long tickId) {
        return sums("WHERE tick_id <= ?", tickId);
    }

    private TokenSums sums(String where, long tickId) {
        return store.queryOne(SUMS + where, rs -> new TokenSums(rs.getLong(1), rs.getLong(2), rs.getLong(3),
                rs.getLong(4)), tickId).orElse(TokenSums.NONE);
    }

    public List<TickRecord> latest(int limit) {
        return store.query("SELECT " + TICK_COLUMNS + " FROM agent_log ORDER BY tick_id DESC LIMIT ?",
                AgentLogDao::tick, limit);
    }

    /** The last {@code limit} ticks with their replies, oldest first (newest last). */
    public List<LoggedTick> lastLogged(int limit) {
        List<LoggedTick> rows = new ArrayList<>(store.query("SELECT " + LOGGED_COLUMNS + " FROM agent_log a "
                + "ORDER BY a.tick_id DESC LIMIT ?", AgentLogDao::logged, limit));
        Collections.reverse(rows);
        return rows;
    }

    /** Up to {@code limit} ticks after {@code tickId} with their replies, oldest first. */
    public List<LoggedTick> loggedAfter(long tickId, int limit) {
        return store.query("SELECT " + LOGGED_COLUMNS + " FROM agent_log a WHERE a.tick_id > ? "
                + "ORDER BY a.tick_id LIMIT ?", AgentLogDao::logged, tickId, limit);
    }

    /** Tick {@code tickId} with its reply, if it is logged. */
    public Optional<LoggedTick> logged(long tickId) {
        return store.queryOne("SELECT " + LOGGED_COLUMNS + " FROM agent_log a WHERE a.tick_id = ?",
                AgentLogDao::logged, tickId);
    }

    private static TickRecord tick(ResultSet rs) throws SQLException {
        return new TickRecord(rs.getLong(1), Instant.parse(rs.getString(2)), Instant.parse(rs.getString(3)),
                rs.getString(4), rs.getString(5), rs.getInt(6) != 0, rs.getInt(7), rs.getInt(8), rs.getInt(9),
                rs.getInt(10), rs.getInt(11) != 0, rs.getString(12), rs.getInt(13));
    }

    private static LoggedTick logged(ResultSet rs) throws SQLException {
        return new LoggedTick(tick(rs), rs.getString(14), rs.getInt(15) != 0, rs.getLong(16));
    }
}
