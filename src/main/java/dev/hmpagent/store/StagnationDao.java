package dev.hmpagent.store;

import java.util.Objects;

/** {@code anti_stagnation_metrics}: one row each time the comparison runs and finds a repeat. */
public final class StagnationDao {
    private final Store store;

    public StagnationDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    public long recordReflex(long tickId, long repeatedResponseId, double noveltyScore, String method, String strategy) {
        return store.insert("INSERT INTO anti_stagnation_metrics(timestamp, tick_id, response_id, novelty_score, method, "
                + "reflex_fired, strategy) VALUES (?, ?, ?, ?, ?, 1, ?)", store.now(), tickId, repeatedResponseId,
                noveltyScore, method, strategy);
    }

    public long reflexCount() {
        return store.queryLong("SELECT count(*) FROM anti_stagnation_metrics WHERE reflex_fired = 1");
    }
}
