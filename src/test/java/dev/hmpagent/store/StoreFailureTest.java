package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a Store does when SQLite fails under it: a full disk, an I/O error. Real files, real SQLITE_FULL. */
class StoreFailureTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-21T10:00:00Z");
    static final String BIG = "x".repeat(200_000);

    @Test
    void after_a_disk_full_transaction_the_next_transaction_is_still_all_or_nothing() {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            NotesDao notes = new NotesDao(store);
            store.setMaxPageCount(1);
            assertThatThrownBy(() -> store.inTransaction(() -> {
                notes.add("small", "user", 0, null);
                notes.add(BIG, "user", 0, null);
            })).isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.FULL))
                    .hasMessageContaining("disk full");

            assertThatThrownBy(() -> store.inTransaction(() -> {
                notes.add("a", "user", 0, null);
                notes.add("b", "user", 0, null);
                throw new IllegalStateException("boom");
            })).hasMessage("boom");
            assertThat(notes.unreadCount()).isZero();
            assertThat(committedNotes()).isZero();
        }
    }

    @Test
    void writes_succeed_again_on_the_same_store_once_space_is_freed_and_the_cap_survives() {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            NotesDao notes = new NotesDao(store);
            long cap = store.setMaxPageCount(1);
            assertThatThrownBy(() -> notes.add(BIG, "user", 0, null)).isInstanceOf(StoreException.class);
            assertThatThrownBy(() -> store.inTransaction(() -> notes.add(BIG, "user", 0, null)))
                    .isInstanceOf(StoreException.class);
            assertThat(store.queryLong("PRAGMA max_page_count")).isEqualTo(cap);

            store.setMaxPageCount(1_000_000);
            store.inTransaction(() -> {
                notes.add("small", "user", 0, null);
                notes.add(BIG, "user", 0, null);
            });
            assertThat(committedNotes()).isEqualTo(2);
        }
    }

    @Test
    void statements_after_a_failure_inside_the_same_transaction_do_not_slip_out_one_by_one() {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            NotesDao notes = new NotesDao(store);
            store.setMaxPageCount(1);
            assertThatThrownBy(() -> store.inTransaction(() -> {
                notes.add("before", "user", 0, null);
                try {
                    notes.add(BIG, "user", 0, null);
                } catch (StoreException swallowed) {
                    // a careless caller carries on inside the same transaction
                }
                notes.add("after", "user", 0, null);
            })).isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.FULL));
            assertThat(committedNotes()).isZero();
        }
    }

    /** Counts notes through a second connection: only what was really committed. */
    private long committedNotes() {
        try (Store other = Store.open(dir.resolve("agent.db"), clock)) {
            return other.queryLong("SELECT count(*) FROM notes");
        }
    }

    @Test
    void probe_write_fails_while_the_file_cannot_grow_and_passes_once_it_can() {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            store.probeWrite();
            store.setMaxPageCount(1);
            assertThatThrownBy(store::probeWrite).isInstanceOfSatisfying(StoreException.class,
                    e -> assertThat(e.writeFailure()).isTrue()).hasMessageContaining("agent.db");
            store.setMaxPageCount(1_000_000);
            store.probeWrite();
            assertThat(store.queryLong("SELECT count(*) FROM write_probe")).isZero();
        }
    }

    @Test
    void repeated_probes_do_not_grow_the_file() {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            store.probeWrite();
            long pages = store.queryLong("PRAGMA page_count");
            for (int i = 0; i < 20; i++) store.probeWrite();
            assertThat(store.queryLong("PRAGMA page_count")).isEqualTo(pages);
        }
    }
}
