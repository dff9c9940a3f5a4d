package dev.hmpagent.store;

import java.util.Objects;

/**
 * A small real write that tells whether the file can take new data: one committed transaction that
 * inserts and deletes a 16 KB row in {@code write_probe}, so it takes the write lock, allocates pages and
 * appends to the WAL like a tick does.
 *
 * <p>Pages a delete frees stay in the file's freelist and a later insert reuses them, so after the first
 * probe the committed insert alone would pass even when the file cannot grow any more (its size cap is
 * reached). The probe therefore first allocates past the freelist inside a savepoint it rolls back: that
 * proves the file can grow by 16 KB without growing it. When the freelist already holds over 1 MB the
 * file has room inside and that step is skipped (it would also spill a large blob into the WAL).
 */
final class WriteProbe {
    static final int PROBE_BYTES = 16 * 1024;
    private static final long ROOMY_FREELIST_BYTES = 1024 * 1024;

    private final Store store;

    WriteProbe(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    void run() {
        store.inTransaction(() -> {
            long pageSize = store.queryLong("PRAGMA page_size");
            long freeBytes = store.queryLong("PRAGMA freelist_count") * pageSize;
            if (freeBytes <= ROOMY_FREELIST_BYTES) {
                store.update("SAVEPOINT probe_growth");
                store.update("INSERT INTO write_probe(id, data, at) VALUES (1, zeroblob(?), ?)",
                        freeBytes + PROBE_BYTES, store.now());
                store.update("ROLLBACK TO probe_growth");
                store.update("RELEASE probe_growth");
            }
            store.update("INSERT INTO write_probe(id, data, at) VALUES (1, zeroblob(?), ?)", PROBE_BYTES, store.now());
            store.update("DELETE FROM write_probe");
        });
    }
}
