package dev.hmpagent.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * {@code a2a_tasks} (issue 37): the A2A tasks this agent serves. A caller's message is a {@code notes} row (source
 * {@code peer}); its task is {@code submitted} until the agent reads the note ({@code working} is that: a task not yet
 * ended whose note is read), and ends {@code completed} with the agent's answer ({@code note_reply} to the note),
 * {@code canceled} by the caller, {@code failed} or {@code rejected} with a reason.
 */
public final class A2aTasksDao {
    /** The states a task ends in: nothing moves it on after them. */
    public static final Set<String> ENDED = Set.of("completed", "canceled", "failed", "rejected");

    /** A task as stored, with whether its note was read (a task not ended with its note read is working). */
    public record Task(String id, String contextId, long noteId, String caller, String state, String message,
                       String answer, String reason, String trace, String createdAt, String updatedAt,
                       boolean noteRead, long tokens) {
        /** The state a caller is told: {@code working} once the agent read the note of a task not ended. */
        public String shownState() {
            return state.equals("submitted") && noteRead ? "working" : state;
        }

        public boolean ended() {
            return ENDED.contains(state);
        }
    }

    private static final String COLUMNS = "t.id, t.context_id, t.note_id, t.caller, t.state, t.message, "
            + "coalesce(t.answer, ''), coalesce(t.reason, ''), t.trace, t.created_at, t.updated_at, coalesce(n.read, 0), t.tokens";
    private static final String FROM = " FROM a2a_tasks t LEFT JOIN notes n ON n.id = t.note_id";

    private final Store store;

    public A2aTasksDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** A new task for note {@code noteId}: {@code message} is the caller's message as JSON, {@code trace} a JSON array. */
    public void add(String id, String contextId, long noteId, String caller, String message, String trace) {
        String now = store.now();
        store.update("INSERT INTO a2a_tasks(id, context_id, note_id, caller, state, message, trace, created_at, updated_at)"
                + " VALUES (?, ?, ?, ?, 'submitted', ?, ?, ?, ?)", id, contextId, noteId, caller, message, trace, now, now);
    }

    public Optional<Task> get(String id) {
        return store.queryOne("SELECT " + COLUMNS + FROM + " WHERE t.id = ?", A2aTasksDao::map, id);
    }

    /** The task whose message became note {@code noteId}, if any. */
    public Optional<Task> byNote(long noteId) {
        return store.queryOne("SELECT " + COLUMNS + FROM + " WHERE t.note_id = ? LIMIT 1", A2aTasksDao::map, noteId);
    }

    /**
     * Tasks newest first: of {@code contextId} when not blank, in {@code state} (as shown) when not blank, of
     * {@code caller} when not blank, created before {@code before} (a page's cursor) when not blank; at most {@code limit}.
     */
    public List<Task> list(String contextId, String state, String caller, String before, int limit) {
        StringBuilder where = new StringBuilder(" WHERE 1 = 1");
        List<Object> params = new ArrayList<>();
        if (!contextId.isBlank()) {
            where.append(" AND t.context_id = ?");
            params.add(contextId);
        }
        if (!caller.isBlank()) {
            where.append(" AND t.caller = ?");
            params.add(caller);
        }
        if (!before.isBlank()) {
            where.append(" AND (t.created_at || t.id) < ?");
            params.add(before);
        }
        if (!state.isBlank()) {
            where.append(" AND (CASE WHEN t.state = 'submitted' AND coalesce(n.read, 0) = 1 THEN 'working' ELSE t.state END) = ?");
            params.add(state);
        }
        params.add(limit);
        return store.query("SELECT " + COLUMNS + FROM + where + " ORDER BY t.created_at DESC, t.id DESC LIMIT ?",
                A2aTasksDao::map, params.toArray());
    }

    /**
     * Ends a task not ended yet in {@code state} with {@code answer} (may be null) and {@code reason}; false when it had
     * ended already (a canceled task keeps its state when the agent answers after all).
     */
    public boolean end(String id, String state, String answer, String reason) {
        if (!ENDED.contains(state)) throw new IllegalArgumentException("not an end state: " + state);
        // what the agent's LLM calls cost while the task was open: the budget the caller caused
        return store.update("UPDATE a2a_tasks SET state = ?, answer = ?, reason = ?, updated_at = ?, tokens = (SELECT"
                + " coalesce(sum(l.prompt_tokens + l.completion_tokens), 0) FROM llm_calls l WHERE l.at >="
                + " a2a_tasks.created_at) WHERE id = ? AND state NOT IN ('completed', 'canceled', 'failed', 'rejected')",
                state, answer, reason, store.now(), id) > 0;
    }

    /** Says why task {@code id}, not ended, waits (the agent is stopped); its answer, when it comes, is shown instead. */
    public void waiting(String id, String why) {
        store.update("UPDATE a2a_tasks SET reason = ?, updated_at = ? WHERE id = ? AND state = 'submitted'", why,
                store.now(), id);
    }

    /** Task {@code id} is now about note {@code noteId} (its message handed to the agent again after a restart). */
    public void moveNote(String id, long noteId) {
        store.update("UPDATE a2a_tasks SET note_id = ?, updated_at = ? WHERE id = ?", noteId, store.now(), id);
    }

    /** The tokens the tasks of {@code caller} created at or after {@code since} (ISO instant) cost the agent. */
    public long tokensOf(String caller, String since) {
        return store.queryLong("SELECT coalesce(sum(tokens), 0) FROM a2a_tasks WHERE caller = ? AND created_at >= ?",
                caller, since);
    }

    /** Tasks not ended whose note was read: what a restart finds in flight. */
    public List<Task> inFlight() {
        return store.query("SELECT " + COLUMNS + FROM + " WHERE t.state = 'submitted' AND coalesce(n.read, 0) = 1"
                + " ORDER BY t.created_at", A2aTasksDao::map);
    }

    /** The newest task's creation time and id, as a page cursor: {@code created_at || id}. */
    public static String cursor(Task t) {
        return t.createdAt() + t.id();
    }

    private static Task map(ResultSet rs) throws SQLException {
        return new Task(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getString(4), rs.getString(5),
                rs.getString(6), rs.getString(7), rs.getString(8), rs.getString(9), rs.getString(10),
                rs.getString(11), rs.getInt(12) == 1, rs.getLong(13));
    }
}
