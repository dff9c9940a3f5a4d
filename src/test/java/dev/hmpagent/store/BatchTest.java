package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A batch (issue 36): one transaction for several units, each in a savepoint of its own. */
class BatchTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-29T18:00:00Z");

    @Test
    void units_commit_together_and_a_failing_unit_undoes_only_its_own_writes() throws Exception {
        Path db = dir.resolve("agent.db");
        try (Store store = Store.open(db, clock); Batch batch = store.batch()) {
            DiaryDao diary = store.tables().diary();
            batch.open();
            store.inTransaction(() -> diary.add("one", null, 0, "m"));
            assertThatThrownBy(() -> store.inTransaction(() -> {
                diary.add("two", null, 0, "m");
                throw new IllegalStateException("the unit fails after its write");
            })).hasMessageContaining("fails after");
            store.inTransaction(() -> diary.add("three", null, 0, "m"));
            assertThat(texts(db)).as("another connection sees nothing before the commit").isEmpty();
            batch.commit();
            assertThat(batch.isOpen()).isFalse();
        }
        assertThat(texts(db)).containsExactly("one", "three");
    }

    @Test
    void what_was_not_committed_is_rolled_back_on_close_and_the_connection_starts_clean() throws Exception {
        Path db = dir.resolve("agent.db");
        try (Store store = Store.open(db, clock)) {
            try (Batch batch = store.batch()) {
                batch.open();
                store.inTransaction(() -> store.tables().diary().add("lost", null, 0, "m"));
            }
            store.inTransaction(() -> store.tables().diary().add("kept", null, 0, "m"));
        }
        assertThat(texts(db)).containsExactly("kept");
    }

    @Test
    void inside_a_transaction_the_caller_holds_a_batch_opens_nothing_and_its_units_join_it() throws Exception {
        Path db = dir.resolve("agent.db");
        try (Store store = Store.open(db, clock)) {
            store.inTransaction(() -> {
                try (Batch batch = store.batch()) {
                    batch.open();
                    assertThat(batch.isOpen()).isFalse();
                    store.inTransaction(() -> store.tables().diary().add("joined", null, 0, "m"));
                    batch.commit();
                }
            });
        }
        assertThat(texts(db)).containsExactly("joined");
    }

    private static List<String> texts(Path db) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT text FROM diary_entries ORDER BY id")) {
            while (rs.next()) out.add(rs.getString(1));
        }
        return out;
    }
}
