package dev.hmpagent.store;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * {@code safety_state} (one row) and its append-only {@code safety_audit}. Values are the column
 * texts; the safety package owns what they mean and which moves are legal.
 */
public final class SafetyDao {
    /** The row of {@code safety_state}; {@code until} (null for none) is when a rest (RESTING) ends by itself. */
    public record Row(String state, String reason, String detail, Instant since, Instant until) {
        public Row(String state, String reason, String detail, Instant since) {
            this(state, reason, detail, since, null);
        }
    }

    /** One audit row. */
    public record Audit(Instant at, String event, String fromState, String toState, String reason, String detail,
                        long pid, String user, String host) { }

    private final Store store;

    public SafetyDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * Read several times a tick, changed rarely: read again only when the row may have changed (a kept read, {@link
     * Store#queryKept}).
     */
    public Row current() {
        return store.queryOneKept("SELECT state, reason, detail, since, until FROM safety_state WHERE id = 1",
                rs -> new Row(rs.getString(1), rs.getString(2), rs.getString(3), Instant.parse(rs.getString(4)),
                        rs.getString(5) == null ? null : Instant.parse(rs.getString(5))))
                .orElseThrow(() -> new StoreException(store.path() + " has no safety_state row: run `agent check`"));
    }

    /** Sets the state and appends its audit row; call inside one transaction with the read that decided it. */
    public void move(Row to, Audit audit) {
        store.update("UPDATE safety_state SET state = ?, reason = ?, detail = ?, since = ?, until = ? WHERE id = 1",
                to.state(), to.reason(), to.detail(), to.since(), to.until());
        store.insert("INSERT INTO safety_audit(at, event, from_state, to_state, reason, detail, pid, user_name, host) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", audit.at(), audit.event(), audit.fromState(),
                audit.toState(), audit.reason(), audit.detail(), audit.pid(), audit.user(), audit.host());
    }

    /** An audit row without a move (a refused request). */
    public void audit(Audit audit) {
        store.insert("INSERT INTO safety_audit(at, event, from_state, to_state, reason, detail, pid, user_name, host) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", audit.at(), audit.event(), audit.fromState(),
                audit.toState(), audit.reason(), audit.detail(), audit.pid(), audit.user(), audit.host());
    }

    /** The newest audit rows, oldest first. */
    public List<Audit> latestAudit(int limit) {
        List<Audit> rows = new java.util.ArrayList<>(store.query("SELECT at, event, from_state, to_state, reason, detail, "
                + "coalesce(pid, 0), user_name, host FROM safety_audit ORDER BY id DESC LIMIT ?",
                rs -> new Audit(Instant.parse(rs.getString(1)), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getString(6), rs.getLong(7), rs.getString(8), rs.getString(9)), limit));
        java.util.Collections.reverse(rows);
        return rows;
    }

    /** An {@code unlock_refused} audit row: an unlock refused to a process the agent started. */
    public record Refusal(long id, Instant at, String state, String why, long pid) { }

    /**
     * The {@code unlock_refused} audit rows after the cursor in {@code safety_counters.unlock_refusals_seen}, oldest
     * first (a range of the primary key: cheap enough for every loop iteration).
     */
    public List<Refusal> unlockRefusalsNotSeen() {
        return store.query("SELECT id, at, from_state, coalesce(detail, ''), coalesce(pid, 0) FROM safety_audit "
                        + "WHERE id > (SELECT unlock_refusals_seen FROM safety_counters WHERE id = 1) "
                        + "AND event = 'unlock_refused' ORDER BY id",
                rs -> new Refusal(rs.getLong(1), Instant.parse(rs.getString(2)), rs.getString(3), rs.getString(4),
                        rs.getLong(5)));
    }

    /** Moves the cursor past refusal {@code id}; call in the transaction that records it. */
    public void markUnlockRefusalSeen(long id) {
        store.update("UPDATE safety_counters SET unlock_refusals_seen = max(unlock_refusals_seen, ?) WHERE id = 1", id);
    }

    /** The id of the newest audit row of a person's unlock (0 when there is none). */
    public long lastUnlockId() {
        return store.queryLong("SELECT coalesce(max(id), 0) FROM safety_audit WHERE event = 'unlock'");
    }

    public Store store() { return store; }
}
