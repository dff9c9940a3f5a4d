package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a DAO keeps between reads is read again whenever the rows may have changed, by anyone, and never otherwise. */
class FreshnessTest {
    @TempDir
    Path dir;

    @Test
    void a_kept_value_is_read_once_until_a_write_to_its_table() {
        try (Store store = Store.open(dir.resolve("a.db"), Clock.systemUTC())) {
            AtomicInteger reads = new AtomicInteger();
            Freshness.Kept<Integer> kept = new Freshness.Kept<>(store, "config");
            assertThat(kept.get(reads::incrementAndGet)).isEqualTo(1);
            assertThat(kept.get(reads::incrementAndGet)).as("nothing written: kept").isEqualTo(1);
            store.update("INSERT INTO notes(text, source, priority, timestamp) VALUES ('x', 'user', 0, ?)", store.now());
            assertThat(kept.get(reads::incrementAndGet)).as("another table written: kept").isEqualTo(1);
            store.tables().settings().put("cycle.hz", "2");
            assertThat(kept.get(reads::incrementAndGet)).as("its table written: read again").isEqualTo(2);
            store.update("  update OR ignore config SET value = '3' WHERE key = 'cycle.hz'");
            assertThat(kept.get(reads::incrementAndGet)).isEqualTo(3);
        }
    }

    @Test
    void a_write_that_changed_no_row_keeps_what_was_read_unless_its_table_has_a_trigger() {
        try (Store store = Store.open(dir.resolve("c.db"), Clock.systemUTC())) {
            AtomicInteger reads = new AtomicInteger();
            Freshness.Kept<Integer> kept = new Freshness.Kept<>(store, "config");
            store.tables().settings().put("context3.diary_query", "backup");
            assertThat(kept.get(reads::incrementAndGet)).isEqualTo(1);
            store.tables().settings().put("context3.diary_query", "backup");
            store.update("UPDATE config SET value = 'x' WHERE key = 'no such key'");
            store.update("DELETE FROM config WHERE key = 'no such key'");
            assertThat(kept.get(reads::incrementAndGet)).as("the same value again, nothing matched: kept").isEqualTo(1);
            assertThat(store.tables().settings().get("context3.diary_query")).contains("backup");
            store.tables().settings().put("context3.diary_query", "restore");
            assertThat(kept.get(reads::incrementAndGet)).as("a new value: read again").isEqualTo(2);
            assertThat(store.tables().settings().get("context3.diary_query")).contains("restore");

            // a BEFORE trigger runs even for the row OR IGNORE leaves out: no row of t changed, config did
            store.executeScript("CREATE TABLE t(k TEXT PRIMARY KEY); INSERT INTO config(key, value) VALUES ('n', 0);"
                    + " CREATE TRIGGER t_counts BEFORE INSERT ON t BEGIN UPDATE config SET value = value + 1"
                    + " WHERE key = 'n'; END; INSERT INTO t VALUES ('a');");
            int before = kept.get(reads::incrementAndGet);
            assertThat(store.update("INSERT OR IGNORE INTO t VALUES ('a')")).isZero();
            assertThat(kept.get(reads::incrementAndGet)).as("the trigger wrote config").isEqualTo(before + 1);
            assertThat(store.tables().settings().get("n")).contains("2");
        }
    }

    @Test
    void in_one_look_another_connections_commit_shows_at_the_next_look_or_in_a_write_transaction() {
        Path file = dir.resolve("look.db");
        try (Store store = Store.open(file, Clock.systemUTC()); Store other = Store.open(file, Clock.systemUTC())) {
            SettingsDao settings = store.tables().settings();
            other.tables().settings().put("cycle.hz", "1");
            try (Look look = store.oneLook()) {
                assertThat(settings.get("cycle.hz")).contains("1");
                other.tables().settings().put("cycle.hz", "2");
                assertThat(settings.get("cycle.hz")).as("the same look: what it saw").contains("1");
                try (Look inner = store.oneLook()) {
                    assertThat(settings.get("cycle.hz")).contains("1");
                }
                assertThat(settings.get("cycle.hz")).as("an inner look closed: the outer goes on").contains("1");
                assertThat(store.inTransaction(() -> settings.get("cycle.hz"))).as("a write transaction asks itself")
                        .contains("2");
                other.tables().settings().put("cycle.hz", "3");
                assertThat(settings.get("cycle.hz")).as("after a write transaction the look asks once more")
                        .contains("3");
                other.tables().settings().put("cycle.hz", "4");
                assertThat(settings.get("cycle.hz")).as("and then keeps what it saw").contains("3");
            }
            assertThat(settings.get("cycle.hz")).as("after the look").contains("4");
            other.tables().settings().put("cycle.hz", "5");
            assertThat(settings.get("cycle.hz")).as("no look: every read asks").contains("5");
        }
    }

    @Test
    void another_connections_commit_and_this_ones_rollbacks_are_seen() {
        Path file = dir.resolve("b.db");
        try (Store store = Store.open(file, Clock.systemUTC()); Store other = Store.open(file, Clock.systemUTC())) {
            SettingsDao settings = store.tables().settings();
            assertThat(settings.get("cycle.hz")).isEmpty();
            other.tables().settings().put("cycle.hz", "5");
            assertThat(settings.get("cycle.hz")).as("another connection committed").contains("5");

            assertThatThrownBy(() -> store.inTransaction(() -> {
                settings.put("cycle.hz", "7");
                assertThat(settings.get("cycle.hz")).as("inside the transaction").contains("7");
                throw new IllegalStateException("undo");
            })).hasMessage("undo");
            assertThat(settings.get("cycle.hz")).as("rolled back: the kept 7 is gone").contains("5");

            try (Batch batch = store.batch()) {
                batch.open();
                assertThatThrownBy(() -> store.inTransaction(() -> {
                    settings.put("cycle.hz", "9");
                    assertThat(settings.get("cycle.hz")).contains("9");
                    throw new IllegalStateException("unit undone");
                })).hasMessage("unit undone");
                assertThat(settings.get("cycle.hz")).as("rolled back to the savepoint").contains("5");
                batch.commit();
            }
        }
    }

    @Test
    void the_safety_state_moved_by_another_process_is_read_at_once() {
        Path file = dir.resolve("c.db");
        try (Store store = Store.open(file, Clock.systemUTC()); Store other = Store.open(file, Clock.systemUTC())) {
            String before = store.tables().safety().current().state();
            other.inTransaction(() -> other.tables().safety().move(new SafetyDao.Row("STOPPED", "halt", "by hand",
                    Instant.now()), new SafetyDao.Audit(Instant.now(), "halt", before, "STOPPED", "halt", "by hand", 1,
                    "me", "here")));
            assertThat(store.tables().safety().current().state()).isEqualTo("STOPPED");
            assertThat(store.tables().safetyCounters().current().taskTokens()).isZero();
            other.inTransaction(() -> other.tables().safetyCounters().addTokens(42));
            assertThat(store.tables().safetyCounters().current().taskTokens()).isEqualTo(42);
            store.inTransaction(() -> store.tables().safetyCounters().addTokens(8));
            assertThat(store.tables().safetyCounters().current().taskTokens()).isEqualTo(50);
            // inside a write transaction the other connection's commit is asked for once, at its first read
            store.inTransaction(() -> assertThat(store.tables().safetyCounters().current().taskTokens()).isEqualTo(50));
            other.inTransaction(() -> other.tables().safetyCounters().addTokens(1));
            assertThat(store.inTransaction(() -> store.tables().safetyCounters().current().taskTokens()))
                    .as("a later transaction sees what committed in between").isEqualTo(51);
        }
    }
}
