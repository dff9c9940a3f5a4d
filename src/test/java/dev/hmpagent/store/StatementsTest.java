package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The prepared statements a Store keeps between uses change nothing a caller can see. */
class StatementsTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-27T10:00:00Z");

    @Test
    void a_kept_query_holds_no_snapshot_and_sees_what_another_connection_committed_since() {
        try (Store store = Store.open(dir.resolve("agent.db"), clock); Store other = store.connectAgain()) {
            String count = "SELECT count(*) FROM diary_entries";
            assertThat(store.queryLong(count)).isZero();
            other.update("INSERT INTO diary_entries(text, timestamp) VALUES ('a', '2026-11-27T10:00:00Z')");
            assertThat(store.queryLong(count)).isEqualTo(1);
            // and the reader's kept statement does not keep the writer from checkpointing the whole WAL
            assertThat(other.queryOne("PRAGMA wal_checkpoint(TRUNCATE)", rs -> rs.getInt(1))).contains(0);
        }
    }

    @Test
    void inserts_return_their_rowid_each_time_and_the_same_sql_can_run_inside_its_own_rows() {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            String insert = "INSERT INTO diary_entries(text, timestamp) VALUES (?, '2026-11-27T10:00:00Z')";
            long first = store.insert(insert, "one");
            assertThat(store.insert(insert, "two")).isEqualTo(first + 1);
            String texts = "SELECT text FROM diary_entries ORDER BY id";
            List<String> nested = new ArrayList<>();
            store.forEachRow(texts, rs -> rs.getString(1), t -> nested.add(t + ":" + store.query(texts, rs -> rs.getString(1))));
            assertThat(nested).containsExactly("one:[one, two]", "two:[one, two]");
            assertThat(store.query(texts, rs -> rs.getString(1))).containsExactly("one", "two");
        }
    }

    @Test
    void a_kept_statement_run_with_fewer_values_than_its_parameters_binds_null_for_the_rest_not_the_last_values() {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            String sql = "SELECT coalesce(?, 'none') || '/' || coalesce(?, 'none')";
            assertThat(store.query(sql, rs -> rs.getString(1), "a", "b")).containsExactly("a/b");
            assertThat(store.query(sql, rs -> rs.getString(1), "c")).containsExactly("c/none");
            assertThat(store.query(sql, rs -> rs.getString(1))).containsExactly("none/none");
        }
    }

    @Test
    void a_table_dropped_and_made_again_with_other_columns_is_read_as_it_is_now() {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            store.update("CREATE TABLE t(a TEXT)");
            store.update("INSERT INTO t(a) VALUES ('x')");
            assertThat(store.query("SELECT * FROM t", rs -> rs.getMetaData().getColumnCount())).containsExactly(1);
            store.update("DROP TABLE t");
            store.update("CREATE TABLE t(a TEXT, b TEXT)");
            store.update("INSERT INTO t(a, b) VALUES ('y', 'z')");
            assertThat(store.query("SELECT * FROM t", rs -> rs.getString(1) + rs.getString(2))).containsExactly("yz");
        }
    }

    @Test
    void only_data_statements_and_begin_and_commit_are_kept() {
        assertThat(Statements.kept("  select 1")).isTrue();
        assertThat(Statements.kept("WITH x AS (SELECT 1) SELECT * FROM x")).isTrue();
        assertThat(Statements.kept("BEGIN IMMEDIATE")).isTrue();
        assertThat(Statements.kept("DROP TABLE t")).isFalse();
        assertThat(Statements.kept("PRAGMA max_page_count = 5")).isFalse();
        assertThat(Statements.kept("CREATE TABLE t(a)")).isFalse();
    }
}
