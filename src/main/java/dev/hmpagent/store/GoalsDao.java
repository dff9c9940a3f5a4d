package dev.hmpagent.store;

import dev.hmpagent.text.Json;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.store.WorkItem.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** {@code goals} and {@code tasks}: what the agent works towards (context 6, pinned ones first). */
public final class GoalsDao {
    private static final ObjectMapper JSON = Json.mapper();
    private static final String FINISHED = "('done', 'dropped')";
    private final Store store;

    public GoalsDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** Adds a goal ({@code goalId} 0) or a task (of goal {@code goalId}, 0 for none) with its kind's first status. */
    public long add(Kind kind, long goalId, String title, String description, int priority, String llmId) {
        String now = store.now();
        if (kind == Kind.GOAL) {
            return store.insert("INSERT INTO goals(title, description, status, priority, created_at, updated_at, llm_id) "
                    + "VALUES (?, ?, ?, ?, ?, ?, ?)", title, description, kind.initialStatus(), priority, now, now, llmId);
        }
        return store.insert("INSERT INTO tasks(title, description, status, priority, goal_id, created_at, updated_at, "
                + "llm_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", title, description, kind.initialStatus(), priority,
                goalId == 0 ? null : goalId, now, now, llmId);
    }

    public Optional<WorkItem> get(Kind kind, long id) {
        return store.queryOne(select(kind) + " WHERE id = ?", rs -> map(kind, rs), id);
    }

    /**
     * Changes the fields given (null: unchanged); {@code evidence}, when given, is stored with the status.
     * False when there is no such row.
     */
    public boolean update(Kind kind, long id, String status, Integer priority, String title, String description,
                          List<Long> evidence) {
        return store.update("UPDATE " + kind.table + " SET status = coalesce(?, status), priority = coalesce(?, priority), "
                        + "title = coalesce(?, title), description = coalesce(?, description), "
                        + "evidence = coalesce(?, evidence), updated_at = ? WHERE id = ?", status, priority, title,
                description, evidence == null ? null : json(evidence), store.now(), id) > 0;
    }

    /** Pins the row (a pin already there keeps its tick); false when there is no such row. */
    public boolean pin(Kind kind, long id, long tickId) {
        return store.update("UPDATE " + kind.table + " SET pinned_tick = CASE pinned WHEN 1 THEN pinned_tick ELSE ? END, "
                + "pinned = 1 WHERE id = ?", tickId, id) > 0;
    }

    public boolean unpin(Kind kind, long id) {
        return store.update("UPDATE " + kind.table + " SET pinned = 0, pinned_tick = NULL WHERE id = ?", id) > 0;
    }

    /**
     * What context 6 shows: the pinned rows (oldest pin first, whatever their status), then the unfinished
     * unpinned ones by priority (highest first), at most {@code limit} in all.
     */
    public List<WorkItem> forContext(Kind kind, int limit) {
        List<WorkItem> rows = new ArrayList<>(store.queryKept(select(kind) + " WHERE pinned = 1 ORDER BY pinned_tick, id "
                + "LIMIT ?", rs -> map(kind, rs), limit));
        rows.addAll(store.queryKept(select(kind) + " WHERE pinned = 0 AND status NOT IN " + FINISHED
                + " ORDER BY priority DESC, id LIMIT ?", rs -> map(kind, rs), limit - rows.size()));
        return rows;
    }

    /**
     * Rows for *_list: of one status when given ("open": any unfinished one), of one goal when
     * {@code goalId} is not 0 (tasks), pinned first, then by priority and id.
     */
    public List<WorkItem> list(Kind kind, String status, long goalId, int limit) {
        List<Object> params = new ArrayList<>();
        StringBuilder where = new StringBuilder(" WHERE 1");
        if (status.equals("open")) {
            where.append(" AND status NOT IN ").append(FINISHED);
        } else if (!status.isEmpty()) {
            where.append(" AND status = ?");
            params.add(status);
        }
        if (goalId != 0) {
            where.append(" AND goal_id = ?");
            params.add(goalId);
        }
        params.add(limit);
        return store.query(select(kind) + where + " ORDER BY pinned DESC, priority DESC, id LIMIT ?",
                rs -> map(kind, rs), params.toArray());
    }

    private static String select(Kind kind) {
        return "SELECT id, " + (kind == Kind.TASK ? "coalesce(goal_id, 0)" : "0") + ", title, coalesce(description, ''), "
                + "coalesce(status, '" + kind.initialStatus() + "'), coalesce(priority, 0), pinned, evidence FROM " + kind.table;
    }

    private static WorkItem map(Kind kind, java.sql.ResultSet rs) throws java.sql.SQLException {
        return new WorkItem(kind, rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getInt(6), rs.getInt(7) != 0, ids(rs.getString(8)));
    }

    private static String json(List<Long> ids) {
        try {
            return JSON.writeValueAsString(ids);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a list of numbers is always JSON", e);
        }
    }

    private static List<Long> ids(String json) {
        if (json == null || json.isBlank()) return List.of();
        try {
            return List.copyOf(JSON.readValue(json, new TypeReference<ArrayList<Long>>() { }));
        } catch (JsonProcessingException e) {
            return List.of();
        }
    }
}
