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
    private static final String SHOWN = "id, name, cmd_id, coalesce(tick_id, 0), status, result, coalesce(pain_level, 0)";
    /** The name of rows recording a failed LLM call. */
    public static final String LLM_CALL = "llm_call";
    /** How many commands stored redacted this process keeps as they were given, until they run. */
    private static final int HELD_CAP = 1024;
    private final Store store;
    /**
     * Of a pending row stored redacted (a key typed in a command): the stored value and the command as it was given,
     * by id. Only in this process's memory, so only this run's executor runs it as given; a restart ends such rows.
     */
    private final java.util.Map<Long, String[]> asGiven = Collections.synchronizedMap(
            new java.util.LinkedHashMap<>(16, 0.75f, false) {
                @Override
                protected boolean removeEldestEntry(java.util.Map.Entry<Long, String[]> eldest) {
                    return size() > HELD_CAP;
                }
            });

    public ProcessLogDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** A finished row: its status, result, and for a failure its code, severity and pain. */
    public record Finished(ProcessStatus status, String result, String errorCode, String severity, double painLevel,
                           String fingerprint, boolean wake) {
        public Finished {
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(result, "result");
            if (status.inFlight()) throw new IllegalArgumentException("not finished: " + status);
        }
    }

    /** Records a finished command (or a failure fact) in one row. */
    public long record(long tickId, String name, String cmdId, String value, String status, String result,
                       double painLevel, String fingerprint) {
        return record(tickId, name, cmdId, value, new Finished(ProcessStatus.fromColumn(status), result, null, null,
                painLevel, fingerprint, true));
    }

    /** Records a row that is finished when it is written (a malformed command, a failed LLM call). */
    public long record(long tickId, String name, String cmdId, String value, Finished f) {
        String now = store.now();
        return store.insert("INSERT INTO process_log(name, value, status, timestamp, cmd_id, tick_id, result, "
                        + "pain_level, fingerprint, error_code, severity, wake, updated_at) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                name, value, f.status().column(), now, cmdId, tickId, store.scrubResult(f.result()), f.painLevel(),
                f.fingerprint(),
                f.errorCode(), f.severity(), f.wake() ? 1 : 0, now);
    }

    /** A command of a reply, committed with its tick, for the executor to run after the tick's transaction. */
    public long enqueue(long tickId, String name, String cmdId, String value, String fingerprint) {
        String now = store.now();
        return store.insert("INSERT INTO process_log(name, value, status, timestamp, cmd_id, tick_id, fingerprint, "
                        + "updated_at) VALUES (?, ?, 'pending', ?, ?, ?, ?, ?)",
                name, value, now, cmdId, tickId, fingerprint, now);
    }

    /**
     * As {@link #enqueue(long, String, String, String, String)}, storing {@code value} (the command with the secrets
     * typed in it redacted) while {@link #pending} gives this process's executor the command {@code given}.
     */
    public long enqueue(long tickId, String name, String cmdId, String value, String given, String fingerprint) {
        long id = enqueue(tickId, name, cmdId, value, fingerprint);
        if (!value.equals(given)) asGiven.put(id, new String[] {value, given});
        return id;
    }

    /**
     * The commands of a tick still waiting for the executor, in the order the reply gave them; a command stored
     * redacted comes back as it was given, to run.
     */
    public List<ProcessRow> pending(long tickId) {
        return store.query("SELECT " + COLUMNS + " FROM process_log WHERE status = 'pending' AND tick_id = ? "
                + "ORDER BY id", ProcessLogDao::map, tickId).stream().map(this::given).toList();
    }

    private ProcessRow given(ProcessRow r) {
        String[] held = asGiven.get(r.id());
        if (held == null || !held[0].equals(r.value())) return r;
        return new ProcessRow(r.id(), r.name(), r.cmdId(), r.tickId(), held[1], r.status(), r.result(), r.painLevel(),
                r.fingerprint(), r.timestamp());
    }

    /** Every row still in flight (pending or running), oldest first. */
    public List<ProcessRow> inFlight() {
        return store.query("SELECT " + COLUMNS + " FROM process_log WHERE status IN ('pending', 'running') "
                + "ORDER BY id", ProcessLogDao::map);
    }

    public java.util.Optional<ProcessRow> get(long id) {
        return store.queryOne("SELECT " + COLUMNS + " FROM process_log WHERE id = ?", ProcessLogDao::map, id);
    }

    /** Replaces the result text of a row (what the LLM sees: a Guide's meaning, an alert). */
    public void setResult(long id, String result) {
        store.update("UPDATE process_log SET result = ?, updated_at = ? WHERE id = ?", store.scrubResult(result),
                store.now(), id);
    }

    /** The status column of one row, if it exists. */
    public java.util.Optional<ProcessStatus> status(long id) {
        return store.queryOne("SELECT status FROM process_log WHERE id = ?", rs -> ProcessStatus.fromColumn(rs.getString(1)), id);
    }

    /** Pending → running (handed to the process runner); returns false when the row was no longer pending. */
    public boolean startRunning(long id) {
        return store.update("UPDATE process_log SET status = 'running', updated_at = ? WHERE id = ? "
                + "AND status = 'pending'", store.now(), id) == 1;
    }

    /**
     * Finishes a row that is still in flight; returns false (and changes nothing) when it was not: a halt or a
     * restart has already ended it. The result is shown to the LLM as new (seen_tick cleared).
     */
    public boolean finish(long id, Finished f) {
        return store.update("UPDATE process_log SET status = ?, result = ?, error_code = ?, severity = ?, pain_level = ?, "
                        + "fingerprint = coalesce(?, fingerprint), wake = ?, seen_tick = NULL, updated_at = ? "
                        + "WHERE id = ? AND status IN ('pending', 'running')",
                f.status().column(), store.scrubResult(f.result()), f.errorCode(), f.severity(), f.painLevel(),
                f.fingerprint(),
                f.wake() ? 1 : 0, store.now(), id) == 1;
    }

    /**
     * Ends every command not yet run (pending) as {@code error} with code EHALT; they never run later.
     * The rows do not wake the LLM by themselves (a person stopped it); it sees them the next time it thinks.
     */
    public int haltPending(String why) {
        return store.update("UPDATE process_log SET status = 'error', error_code = 'EHALT', severity = 'low', "
                + "pain_level = 0, wake = 0, seen_tick = NULL, updated_at = ?, result = ? WHERE status = 'pending'",
                store.now(), "not run: " + why + "; it will not run later — send it again if it is still wanted");
    }

    /**
     * On a clean exit, after every process was stopped and the results that arrived were written: a row still
     * {@code running} (work whose report did not come in time, a cancelled second LLM call) ends as a
     * {@code warning} (the agent's doing, not a failure of the command: no pain) with {@code why} as its result, so no
     * row is left running until the next start, whose LLM is woken by it. Pending rows (never started) are left for
     * the next start, which marks them offline. Returns how many.
     */
    public int stopRunning(String why) {
        return store.update("UPDATE process_log SET status = 'warning', error_code = NULL, severity = NULL, "
                + "pain_level = 0, wake = 1, seen_tick = NULL, updated_at = ?, result = ? WHERE status = 'running'",
                store.now(), why + "; its result is not known");
    }

    /**
     * At start: rows a process that died left pending or running become {@code offline}, with a result that says
     * so; they never run again. Returns how many.
     */
    public int markOrphansOffline() {
        return store.update("UPDATE process_log SET result = CASE status WHEN 'pending' THEN "
                + "'not run: the agent process ended after this command was received and before it ran; it will not run "
                + "again — send it again if it is still wanted' ELSE "
                + "'lost: the agent process ended while this was running; its result is unknown and it will not run "
                + "again' END, status = 'offline', error_code = 'EOFFLINE', severity = 'low', pain_level = 0.3, "
                + "wake = 1, seen_tick = NULL, updated_at = ? WHERE status IN ('pending', 'running')", store.now());
    }

    /** A row as context 2 shows it: what it was, its status, its result and its pain. */
    public record Shown(long id, String name, String cmdId, long tickId, String status, String result,
                        double painLevel) { }

    /**
     * What context 2 shows: rows the LLM has already seen and not closed (newest of them, oldest
     * first), then the rows it has not seen yet (oldest first), at most {@code limit} in all with
     * the unseen ones taking precedence, so every unseen row is eventually shown. Only the columns it shows are read
     * (every tick, up to 50 rows: a command's whole JSON, its fingerprint and time cost a third of the read).
     */
    public List<Shown> forContext(int limit) {
        List<Shown> unseen = store.query("SELECT " + SHOWN + " FROM process_log WHERE seen_tick IS NULL "
                + "AND status <> 'close' ORDER BY id LIMIT ?", ProcessLogDao::shown, limit);
        List<Shown> seen = new ArrayList<>(store.query("SELECT " + SHOWN + " FROM process_log "
                + "WHERE status <> 'close' AND seen_tick IS NOT NULL ORDER BY id DESC LIMIT ?", ProcessLogDao::shown,
                limit - unseen.size()));
        Collections.reverse(seen);
        seen.addAll(unseen);
        return seen;
    }

    private static Shown shown(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new Shown(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getLong(4), rs.getString(5),
                rs.getString(6), rs.getDouble(7));
    }

    /** Closes successful rows the LLM saw at or before {@code tickId}; returns how many. */
    public int closeOkSeenAtOrBefore(long tickId) {
        return store.update("UPDATE process_log SET status = 'close', updated_at = ? WHERE status = 'ok' "
                + "AND seen_tick IS NOT NULL AND seen_tick <= ?", store.now(), tickId);
    }

    /** Rows of commands or processes still in flight (status running). */
    public long runningCount() {
        return store.queryLong("SELECT count(*) FROM process_log WHERE status = 'running'");
    }

    /**
     * Finished rows no prompt has shown yet that wake the LLM: failures, asynchronous results, information it
     * asked for. Effect-only successes and failed LLM calls ({@value #LLM_CALL}) are shown at the next call but
     * do not by themselves wake the LLM.
     */
    public long unseenCount() {
        return store.queryLong("SELECT count(*) FROM process_log WHERE seen_tick IS NULL AND wake = 1 "
                + "AND status NOT IN ('close', 'running', 'pending') AND name <> '" + LLM_CALL + "'");
    }

    /**
     * The finished rows of tick {@code tickId} that no prompt has shown yet wake the LLM, effect-only successes too:
     * its reply did not end its turn, so the task goes on with their results. Returns how many changed.
     */
    public int wakeTick(long tickId) {
        return store.update("UPDATE process_log SET wake = 1, updated_at = ? WHERE tick_id = ? AND wake = 0 "
                + "AND seen_tick IS NULL AND status NOT IN ('close', 'pending', 'running')", store.now(), tickId);
    }

    /**
     * Records the tick in which the LLM first saw each row (later showings keep the first). Running
     * rows are marked too, so they neither crowd the unseen list nor stay uncloseable; whoever
     * finishes a running row must set seen_tick back to NULL so its result is shown.
     */
    public void markSeen(Collection<Long> ids, long tickId) {
        if (ids.isEmpty()) return;
        // one statement for the whole prompt (it shows dozens of rows), touching only the rows not seen before
        StringBuilder json = new StringBuilder("[");
        for (long id : ids) json.append(json.length() == 1 ? "" : ",").append(id);
        store.update("UPDATE process_log SET seen_tick = ? WHERE seen_tick IS NULL AND id IN "
                + "(SELECT value FROM json_each(?))", tickId, json.append(']').toString());
    }

    /**
     * Closes rows the LLM has seen, by cmd_id or numeric id; returns how many changed. Rows it
     * has not seen yet (this tick's own, or still running) stay open.
     */
    public int close(String idOrCmdId) {
        String now = store.now();
        int n = store.update("UPDATE process_log SET status = 'close', updated_at = ? WHERE cmd_id = ? "
                + "AND status NOT IN ('close', 'pending', 'running') AND seen_tick IS NOT NULL", now, idOrCmdId);
        if (n == 0 && idOrCmdId.matches("\\d{1,18}")) {
            n = store.update("UPDATE process_log SET status = 'close', updated_at = ? WHERE id = ? "
                    + "AND status NOT IN ('close', 'pending', 'running') AND seen_tick IS NOT NULL", now,
                    Long.parseLong(idOrCmdId));
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

    /**
     * A row as a person's listing shows it: the row, and what it is about — the command's description, else its
     * arguments (JSON text), from the stored command; "" when the row stores no command.
     */
    public record Listed(ProcessRow row, String about) { }

    private static final String ABOUT = ", coalesce(CASE WHEN json_valid(value) THEN coalesce(json_extract(value, "
            + "'$.description'), json_extract(value, '$.args')) ELSE value END, '')";

    /** The rows in flight (pending or running), oldest first, at most {@code limit}. */
    public List<Listed> inFlightListed(int limit) {
        return store.query("SELECT " + COLUMNS + ABOUT + " FROM process_log WHERE status IN ('pending', 'running') "
                + "ORDER BY id LIMIT ?", rs -> new Listed(map(rs), rs.getString(11)), limit);
    }

    /** The latest {@code limit} rows that are no longer in flight, newest first. */
    public List<Listed> latestFinished(int limit) {
        return store.query("SELECT " + COLUMNS + ABOUT + " FROM process_log WHERE status NOT IN ('pending', 'running') "
                + "ORDER BY id DESC LIMIT ?", rs -> new Listed(map(rs), rs.getString(11)), limit);
    }

    public List<ProcessRow> byTick(long tickId) {
        return store.query("SELECT " + COLUMNS + " FROM process_log WHERE tick_id = ? ORDER BY id", ProcessLogDao::map, tickId);
    }

    private static ProcessRow map(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new ProcessRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getLong(4), rs.getString(5),
                rs.getString(6), rs.getString(7), rs.getDouble(8), rs.getString(9), rs.getString(10));
    }
}
