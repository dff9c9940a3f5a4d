package dev.hmpagent.store;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** {@code process_log}: commands, their status and result, failure facts. */
public final class ProcessLogDao {
    private static final String COLUMNS =
            "id, name, cmd_id, coalesce(tick_id, 0), value, status, result, coalesce(pain_level, 0), fingerprint, timestamp";
    /** The name of rows recording a failed LLM call. */
    public static final String LLM_CALL = "llm_call";
    private final Store store;

    public ProcessLogDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** Records a finished command (or a failure fact) in one row. */
    public long record(long tickId, String name, String cmdId, String value, String status, String result,
                       double painLevel, String fingerprint) {
        String now = store.now();
        return store.insert("INSERT INTO process_log(name, value, status, timestamp, cmd_id, tick_id, result, "
                        + "pain_level, fingerprint, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                name, value, status, now, cmdId, tickId, result, painLevel, fingerprint, now);
    }

    /**
     * What context 2 shows: rows the LLM has already seen and not closed (newest of them, oldest
     * first), then the rows it has not seen yet (oldest first), at most {@code limit} in all with
     * the unseen ones taking precedence, so every unseen row is eventually shown.
     */
    public List<ProcessRow> forContext(int limit) {
        List<ProcessRow> unseen = store.query("SELECT " + COLUMNS + " FROM process_log WHERE seen_tick IS NULL "
                + "AND status <> 'close' ORDER BY id LIMIT ?", ProcessLogDao::map, limit);
        List<ProcessRow> seen = new ArrayList<>(store.query("SELECT " + COLUMNS + " FROM process_log "
                + "WHERE status <> 'close' AND seen_tick IS NOT NULL ORDER BY id DESC LIMIT ?", ProcessLogDao::map,
                limit - unseen.size()));
        Collections.reverse(seen);
        seen.addAll(unseen);
        return seen;
    }

    /** Closes successful rows the LLM saw at or before {@code tickId}; returns how many. */
    public int closeOkSeenAtOrBefore(long tickId) {
        return store.update("UPDATE process_log SET status = 'close', updated_at = ? WHERE status = 'ok' "
                + "AND seen_tick IS NOT NULL AND seen_tick <= ?", store.now(), tickId);
    }

    /**
     * Finished rows no prompt has shown yet: results the LLM has not seen. Failed LLM calls
     * ({@value #LLM_CALL}) are shown at the next call but do not by themselves wake the LLM.
     */
    /** Rows of commands or processes still in flight (status running). */
    public long runningCount() {
        return store.queryLong("SELECT count(*) FROM process_log WHERE status = 'running'");
    }

    public long unseenCount() {
        return store.queryLong("SELECT count(*) FROM process_log WHERE seen_tick IS NULL "
                + "AND status NOT IN ('close', 'running', 'pending') AND name <> '" + LLM_CALL + "'");
    }

    /**
     * Records the tick in which the LLM first saw each row (later showings keep the first). Running
     * rows are marked too, so they neither crowd the unseen list nor stay uncloseable; whoever
     * finishes a running row must set seen_tick back to NULL so its result is shown.
     */
    public void markSeen(Collection<Long> ids, long tickId) {
        for (long id : ids) {
            store.update("UPDATE process_log SET seen_tick = coalesce(seen_tick, ?) WHERE id = ?", tickId, id);
        }
    }

    /**
     * Closes rows the LLM has seen, by cmd_id or numeric id; returns how many changed. Rows it
     * has not seen yet (this tick's own, or still running) stay open.
     */
    public int close(String idOrCmdId) {
        String now = store.now();
        int n = store.update("UPDATE process_log SET status = 'close', updated_at = ? WHERE cmd_id = ? "
                + "AND status <> 'close' AND seen_tick IS NOT NULL", now, idOrCmdId);
        if (n == 0 && idOrCmdId.matches("\\d{1,18}")) {
            n = store.update("UPDATE process_log SET status = 'close', updated_at = ? WHERE id = ? "
                    + "AND status <> 'close' AND seen_tick IS NOT NULL", now, Long.parseLong(idOrCmdId));
        }
        return n;
    }

    /** The row with this cmd_id (the latest, as cmd_ids repeat across ticks), else the row with this numeric id. */
    public Optional<ProcessRow> byCmdIdOrId(String idOrCmdId) {
        Optional<ProcessRow> row = store.queryOne("SELECT " + COLUMNS + " FROM process_log WHERE cmd_id = ? "
                + "ORDER BY id DESC LIMIT 1", ProcessLogDao::map, idOrCmdId);
        if (row.isEmpty() && idOrCmdId.matches("\\d{1,18}")) {
            row = store.queryOne("SELECT " + COLUMNS + " FROM process_log WHERE id = ?", ProcessLogDao::map,
                    Long.parseLong(idOrCmdId));
        }
        return row;
    }

    /**
     * Deletes closed rows issued at or before {@code upToTick} and, when {@code before} is not empty, written
     * before it; returns how many.
     */
    public int deleteClosed(long upToTick, String before) {
        return store.update("DELETE FROM process_log WHERE status = 'close' AND tick_id IS NOT NULL AND tick_id <= ? "
                + "AND (? = '' OR timestamp < ?)", upToTick, before, before);
    }

    public List<ProcessRow> byTick(long tickId) {
        return store.query("SELECT " + COLUMNS + " FROM process_log WHERE tick_id = ? ORDER BY id", ProcessLogDao::map, tickId);
    }

    private static ProcessRow map(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new ProcessRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getLong(4), rs.getString(5),
                rs.getString(6), rs.getString(7), rs.getDouble(8), rs.getString(9), rs.getString(10));
    }
}
