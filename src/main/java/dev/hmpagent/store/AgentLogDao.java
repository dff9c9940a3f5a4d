package dev.hmpagent.store;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** {@code agent_log}: one row per tick. */
public final class AgentLogDao {
    private final Store store;

    public AgentLogDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    public void insert(TickRecord t) {
        store.insert("INSERT INTO agent_log(tick_id, started_at, ended_at, duration_ms, state, wake_reason, llm_called, "
                        + "prompt_tokens, completion_tokens, commands_run, commands_failed, stagnation, error) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                t.tickId(), t.startedAt(), t.endedAt(), t.durationMs(), t.state(), t.wakeReason(), t.llmCalled(),
                t.promptTokens(), t.completionTokens(), t.commandsRun(), t.commandsFailed(), t.stagnation(), t.error());
    }

    public long lastTickId() {
        return store.queryLong("SELECT coalesce(max(tick_id), 0) FROM agent_log");
    }

    /** Prompt + completion tokens over all ticks. */
    public long totalTokens() {
        return store.queryLong("SELECT coalesce(sum(prompt_tokens + completion_tokens), 0) FROM agent_log");
    }

    public List<TickRecord> latest(int limit) {
        return store.query("SELECT tick_id, started_at, ended_at, state, wake_reason, llm_called, prompt_tokens, "
                + "completion_tokens, commands_run, commands_failed, stagnation, error FROM agent_log "
                + "ORDER BY tick_id DESC LIMIT ?", rs -> new TickRecord(rs.getLong(1), Instant.parse(rs.getString(2)),
                Instant.parse(rs.getString(3)), rs.getString(4), rs.getString(5), rs.getInt(6) != 0, rs.getInt(7),
                rs.getInt(8), rs.getInt(9), rs.getInt(10), rs.getInt(11) != 0, rs.getString(12)), limit);
    }
}
