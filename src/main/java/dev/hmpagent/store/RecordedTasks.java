package dev.hmpagent.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The recorded tasks of a file, read for {@code agent log --export-trace}: a task runs from a message of a person or
 * the CLI (the tick that read it) or an unlock (the first call after it) to the next such start, as the SafetyMonitor
 * counts it; a run with no person has one task from its first call. Only ticks that got a reply from the main call
 * are steps. Read-only: what the rows hold is already redacted, and is read as it is.
 */
public final class RecordedTasks {
    /** One main call that got a reply: its tick and when it was sent. */
    public record Call(long tickId, Instant at) {
        public Call {
            Objects.requireNonNull(at, "at");
        }
    }

    /** A message from a person or the CLI, and the tick that read it. */
    public record PersonNote(long id, long tickId, String text) { }

    /**
     * A finished or unfinished command row of a tick, with its error code (null when none) and whether its result
     * wakes the LLM (a failure, an asynchronous result, information it asked for).
     */
    public record CommandRow(long id, String name, String value, String status, String errorCode, String result,
                             boolean wakes) { }

    private final Store store;

    public RecordedTasks(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** The tasks in the order they started, each as its calls (never empty). */
    public List<List<Call>> tasks() {
        List<Call> calls = store.query("SELECT tick_id, at FROM llm_calls WHERE purpose = 'main' AND outcome <> 'error'"
                + " ORDER BY id", rs -> new Call(rs.getLong(1), Instant.parse(rs.getString(2))));
        TreeSet<Long> starts = new TreeSet<>(store.query("SELECT DISTINCT tick_id FROM notes WHERE source IN ('user',"
                + " 'cli') AND tick_id IS NOT NULL", rs -> rs.getLong(1)));
        for (String unlock : store.query("SELECT at FROM safety_audit WHERE event = 'unlock' ORDER BY id",
                rs -> rs.getString(1))) {
            Instant at = Instant.parse(unlock);
            calls.stream().filter(c -> !c.at().isBefore(at)).findFirst().ifPresent(c -> starts.add(c.tickId()));
        }
        List<List<Call>> tasks = new ArrayList<>();
        List<Call> current = new ArrayList<>();
        long previous = Long.MIN_VALUE;
        for (Call c : calls) {
            Long start = starts.higher(previous);   // a task started after the call before this one, up to this one
            if (!current.isEmpty() && start != null && start <= c.tickId()) {
                tasks.add(List.copyOf(current));
                current.clear();
            }
            current.add(c);
            previous = c.tickId();
        }
        if (!current.isEmpty()) tasks.add(List.copyOf(current));
        return tasks;
    }

    /** The messages of people or the CLI read after tick {@code afterTick} up to and including {@code tickId}. */
    public List<PersonNote> personNotes(long afterTick, long tickId) {
        return store.query("SELECT id, tick_id, text FROM notes WHERE source IN ('user', 'cli') AND tick_id > ?"
                + " AND tick_id <= ? ORDER BY id", rs -> new PersonNote(rs.getLong(1), rs.getLong(2),
                rs.getString(3)), afterTick, tickId);
    }

    /** The reply of tick {@code tickId}'s main call ("" when none was kept). */
    public String reply(long tickId) {
        return store.queryOne("SELECT content FROM llm_recent_responses WHERE tick_id = ? AND role = 'assistant'"
                + " AND stagnation = 0 ORDER BY id LIMIT 1", rs -> rs.getString(1), tickId).orElse("");
    }

    /** The command rows tick {@code tickId} issued, in order (failed LLM calls and unlock refusals are no commands). */
    public List<CommandRow> commands(long tickId) {
        return store.query("SELECT id, name, value, status, error_code, coalesce(result, ''), wake FROM process_log"
                + " WHERE tick_id = ? AND name NOT IN ('" + ProcessLogDao.LLM_CALL + "', 'unlock_refused') ORDER BY id",
                rs -> new CommandRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getString(6), rs.getInt(7) != 0), tickId);
    }
}
