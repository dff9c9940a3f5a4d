package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A kept read ({@link Store#queryKept}) is asked of SQLite again whenever a table it may read may have changed (a
 * write of this connection, a trigger's, another process's commit, a rollback, a schema change), and only then.
 */
class KeptReadsTest {
    private static final String GOALS = "SELECT title FROM goals ORDER BY id";

    @TempDir
    Path dir;

    /** The rows of {@code sql}, counting each row the mapper reads: a read SQLite answered. */
    private static List<String> read(Store store, String sql, AtomicInteger mapped) {
        return store.queryKept(sql, rs -> {
            mapped.incrementAndGet();
            return rs.getString(1);
        });
    }

    private static void goal(Store store, String title) {
        store.update("INSERT INTO goals(title) VALUES (?)", title);
    }

    @Test
    void a_read_is_kept_until_a_table_it_names_is_written() {
        try (Store store = Store.open(dir.resolve("a.db"), Clock.systemUTC())) {
            AtomicInteger mapped = new AtomicInteger();
            goal(store, "ship");
            assertThat(read(store, GOALS, mapped)).containsExactly("ship");
            assertThat(read(store, GOALS, mapped)).containsExactly("ship");
            assertThat(mapped).as("asked once").hasValue(1);

            store.update("INSERT INTO notes(text, source, priority, timestamp) VALUES ('x', 'user', 0, ?)", store.now());
            assertThat(read(store, GOALS, mapped)).containsExactly("ship");
            assertThat(mapped).as("another table written: still kept").hasValue(1);

            goal(store, "test");
            assertThat(read(store, GOALS, mapped)).containsExactly("ship", "test");
            assertThat(mapped).as("its table written: asked again").hasValue(3);
        }
    }

    @Test
    void each_set_of_parameters_is_kept_apart_and_the_rows_cannot_be_changed() {
        try (Store store = Store.open(dir.resolve("b.db"), Clock.systemUTC())) {
            goal(store, "a");
            goal(store, "b");
            String sql = "SELECT title FROM goals WHERE id > ? ORDER BY id";
            assertThat(store.queryKept(sql, rs -> rs.getString(1), 0)).containsExactly("a", "b");
            assertThat(store.queryKept(sql, rs -> rs.getString(1), 1)).containsExactly("b");
            List<String> kept = store.queryKept(sql, rs -> rs.getString(1), 0);
            assertThat(kept).containsExactly("a", "b");
            assertThatThrownBy(() -> kept.add("c")).isInstanceOf(UnsupportedOperationException.class);
        }
    }

    @Test
    void another_processes_commit_is_seen_at_the_next_read() {
        Path file = dir.resolve("c.db");
        try (Store store = Store.open(file, Clock.systemUTC()); Store other = Store.open(file, Clock.systemUTC())) {
            NoteFilter all = NoteFilter.ALL;
            assertThat(store.tables().notes().unreadCapped(all, 5, 10)).isEmpty();
            assertThat(store.tables().notes().unreadCount(all)).isZero();
            other.tables().notes().add("from agent note", "cli", 0, "");
            assertThat(store.tables().notes().unreadCapped(all, 5, 10)).extracting(NoteRow::text)
                    .containsExactly("from agent note");
            assertThat(store.tables().notes().unreadCount(all)).isEqualTo(1);
        }
    }

    @Test
    void a_write_whose_trigger_writes_another_table_moves_that_tables_reads() {
        try (Store store = Store.open(dir.resolve("d.db"), Clock.systemUTC())) {
            store.update("INSERT INTO thinking_methods(id, name, description) VALUES (100, 'five whys', 'ask why')");
            String sql = "SELECT reputation FROM thinking_methods WHERE id = 100";
            assertThat(store.queryKept(sql, rs -> rs.getDouble(1))).containsExactly(0.0);
            // the trigger on ratings sets thinking_methods.reputation: the SQL of the write names only ratings
            store.update("INSERT INTO ratings(agent_id, target_type, target_id, rating) VALUES ('me', 'thinking_method',"
                    + " 100, 4)");
            assertThat(store.queryKept(sql, rs -> rs.getDouble(1))).containsExactly(4.0);
        }
    }

    @Test
    void a_rollback_and_a_schema_change_drop_what_was_kept() {
        try (Store store = Store.open(dir.resolve("e.db"), Clock.systemUTC())) {
            AtomicInteger mapped = new AtomicInteger();
            assertThatThrownBy(() -> store.inTransaction(() -> {
                goal(store, "undone");
                assertThat(read(store, GOALS, mapped)).containsExactly("undone");
                throw new IllegalStateException("undo");
            })).hasMessage("undo");
            assertThat(read(store, GOALS, mapped)).as("the rolled back row is not kept").isEmpty();

            store.update("CREATE TABLE extra (id INTEGER PRIMARY KEY, title TEXT)");
            store.update("INSERT INTO extra(title) VALUES ('new')");
            AtomicInteger extra = new AtomicInteger();
            assertThat(read(store, "SELECT title FROM extra", extra)).containsExactly("new");
            store.update("INSERT INTO extra(title) VALUES ('newer')");
            assertThat(read(store, "SELECT title FROM extra", extra)).as("a table made after the first kept read")
                    .containsExactly("new", "newer");
        }
    }
}
