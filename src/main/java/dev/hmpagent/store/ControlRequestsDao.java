package dev.hmpagent.store;

import java.util.List;
import java.util.Objects;

/** {@code control_requests}: halt, unlock and note requests from other processes to a running agent. */
public final class ControlRequestsDao {
    /** One request, as the running agent reads it. */
    public record Request(long id, String kind, String reason) { }

    private final Store store;

    public ControlRequestsDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    public long add(String kind, String reason, Requester who) {
        return store.insert("INSERT INTO control_requests(kind, reason, pid, user_name, host, requested_at) "
                + "VALUES (?, ?, ?, ?, ?, ?)", kind, reason, who.pid(), who.user(), who.host(), store.now());
    }

    /** Requests newer than {@code afterId}, oldest first (a primary-key range: cheap at any rate). */
    public List<Request> after(long afterId) {
        return store.query("SELECT id, kind, reason FROM control_requests WHERE id > ? ORDER BY id",
                rs -> new Request(rs.getLong(1), rs.getString(2), rs.getString(3)), afterId);
    }

    public long lastId() {
        return store.queryLong("SELECT coalesce(max(id), 0) FROM control_requests");
    }

    /** The oldest request of {@code kind} no running agent has acted on, if any. */
    public java.util.OptionalLong firstUnhandled(String kind) {
        long id = store.queryLong("SELECT coalesce(min(id), 0) FROM control_requests WHERE kind = ? AND handled_at IS NULL",
                kind);
        return id == 0 ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(id);
    }

    public void markHandled(long id, long byPid) {
        store.update("UPDATE control_requests SET handled_at = ?, handled_by = ? WHERE id = ? AND handled_at IS NULL",
                store.now(), byPid, id);
    }
}
