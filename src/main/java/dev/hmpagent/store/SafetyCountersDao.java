package dev.hmpagent.store;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** {@code safety_counters}: the SafetyMonitor's one row. Write inside the transaction of the operation counted. */
public final class SafetyCountersDao {
    /** The row. */
    public record Row(String rulesJson, String taskStartedAt, long taskTokens, long taskTicks, long extraBudget) { }

    private final Store store;

    public SafetyCountersDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * Read several times a tick: read again only when the row may have changed (a kept read, {@link Store#queryKept}).
     */
    public Row current() {
        return store.queryOneKept("SELECT rules_json, task_started_at, task_tokens, task_ticks, extra_budget "
                        + "FROM safety_counters WHERE id = 1",
                rs -> new Row(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getLong(5)))
                .orElseThrow(() -> new StoreException(store.path() + " has no safety_counters row: run `agent check`"));
    }

    /**
     * The rules' text, and how the task's states seen changed since they were last stored: with {@code cleared} the
     * stored ones go first; each of {@code added}, in order, becomes the newest (one forgotten and reached again moves
     * there); with {@code keep} above 0 only the newest {@code keep} stay. In the caller's transaction.
     */
    public void saveRules(String json, boolean cleared, List<String> added, int keep) {
        if (cleared) store.update("DELETE FROM task_states");
        for (String state : added) store.update("INSERT OR REPLACE INTO task_states(state) VALUES (?)", state);
        if (keep > 0) {
            store.update("DELETE FROM task_states WHERE id <= (SELECT id FROM task_states ORDER BY id DESC LIMIT 1"
                    + " OFFSET ?)", keep);
        }
        store.update("UPDATE safety_counters SET rules_json = ?, updated_at = ? WHERE id = 1", json, store.now());
    }

    /** The states the task in force has reached (the rules' task ledger), oldest first. */
    public List<String> taskStates() {
        return store.query("SELECT state FROM task_states ORDER BY id", rs -> rs.getString(1));
    }

    /** Tokens some LLM call of this task spent. */
    public void addTokens(long tokens) {
        store.update("UPDATE safety_counters SET task_tokens = task_tokens + ?, updated_at = ? WHERE id = 1", tokens,
                store.now());
    }

    /** Tokens the ticks that began at or after {@code since} spent (the rolling daily budget). */
    public long tokensSince(java.time.Instant since) {
        return store.queryLong("SELECT coalesce(sum(prompt_tokens + completion_tokens + comparison_tokens), 0) FROM agent_log "
                + "WHERE started_at >= ?", Store.format(since));
    }

    /** One more LLM-calling tick in this task. */
    public void addTick() {
        store.update("UPDATE safety_counters SET task_ticks = task_ticks + 1, updated_at = ? WHERE id = 1", store.now());
    }

    /**
     * A new task, started by note {@code noteId} (a message from a person or the CLI): its tokens and ticks count
     * from zero with the configured budget (budget a person added was for the task it was added to). Returns false,
     * changing nothing, when that note (or a later one) started the task in force: a restart does not start it again.
     */
    public boolean startTask(long noteId) {
        String now = store.now();
        return store.update("UPDATE safety_counters SET task_tokens = 0, task_ticks = 0, extra_budget = 0, "
                + "task_note_id = ?, task_started_at = ?, updated_at = ? WHERE id = 1 AND task_note_id < ?",
                noteId, now, now, noteId) == 1;
    }

    /** Tokens people added with {@code agent unlock --add-budget} ({@code safety_counters.extra_budget}). */
    public long extraBudget() {
        return store.queryLong("SELECT extra_budget FROM safety_counters WHERE id = 1");
    }

    /** Adds {@code tokens} to {@code safety_counters.extra_budget}; call in the transaction of the unlock. */
    public void addExtraBudget(long tokens, Instant at) {
        store.update("UPDATE safety_counters SET extra_budget = extra_budget + ?, updated_at = ? WHERE id = 1",
                tokens, at);
    }

    /**
     * What a person's unlock resets, in its transaction: the behavioural rules' state and the tick count, and
     * with {@code newTask} the task's tokens too, starting a new task at {@code at}.
     */
    public void resetAfterUnlock(Instant at, boolean newTask) {
        store.update("DELETE FROM task_states");
        if (newTask) {
            store.update("UPDATE safety_counters SET rules_json = '{}', task_ticks = 0, task_tokens = 0, extra_budget = 0, "
                    + "task_started_at = ?, updated_at = ? WHERE id = 1", at, at);
        } else {
            store.update("UPDATE safety_counters SET rules_json = '{}', task_ticks = 0, updated_at = ? WHERE id = 1", at);
        }
    }
}
