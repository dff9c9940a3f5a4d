package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hmpagent.testing.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-21T10:00:00Z");

    @Test
    void migrations_from_zero_create_every_hmp_table_and_record_the_version() {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            for (String t : List.of("process_log", "llm_recent_responses", "llm_memory", "notes", "diary_entries",
                    "concepts", "links", "agent_log", "config", "llm_registry", "identity", "agent_peers", "tasks",
                    "goals", "anti_stagnation_metrics", "stagnation_strategies", "thinking_methods", "ratings",
                    "runner_lock", "schema_version")) {
                assertThat(store.tableExists(t)).as(t).isTrue();
            }
            assertThat(store.queryLong("SELECT max(version) FROM schema_version")).isEqualTo(Migrator.known().size());
            assertThat(store.queryOne("PRAGMA journal_mode", rs -> rs.getString(1))).contains("wal");
            assertThat(store.queryLong("PRAGMA foreign_keys")).isEqualTo(1);
            assertThat(store.queryLong("PRAGMA busy_timeout")).isEqualTo(Store.BUSY_TIMEOUT_MS);
        }
    }

    @Test
    void an_insert_gives_its_rowid_and_leaves_no_write_open() {
        Path file = dir.resolve("ids.db");
        try (Store store = Store.open(file, clock); Store other = Store.open(file, clock, 200)) {
            long first = store.insert("INSERT INTO goals(title) VALUES (?)", "one");
            long second = store.insert("INSERT INTO goals(title) VALUES (?)", "two");
            assertThat(second).isEqualTo(first + 1);
            assertThat(store.queryLong("SELECT id FROM goals WHERE title = 'two'")).isEqualTo(second);
            // the statement was finished: another connection may write at once (a write left open would hold the lock)
            other.update("INSERT INTO goals(title) VALUES ('three')");
            long ignored = store.insert("INSERT OR IGNORE INTO goals(id, title) VALUES (?, 'again')", first);
            assertThat(ignored).as("nothing inserted: last_insert_rowid(), as before").isEqualTo(second);
            assertThat(store.queryLong("SELECT count(*) FROM goals")).isEqualTo(3);
        }
    }

    @Test
    void a_row_of_an_agent_table_with_a_column_named_rowid_gets_its_real_id() {
        try (Store store = Store.open(dir.resolve("agent-table.db"), clock)) {
            AgentTablesDao tables = store.tables().agentTables();
            tables.create("odd", "a column named like the rowid", List.of(new AgentTablesDao.Column("rowid",
                    AgentTablesDao.ColumnType.TEXT)), "m");
            long id = tables.insert("odd", java.util.Map.of("rowid", "not a number"));
            assertThat(id).isEqualTo(1);
            assertThat(tables.insert("odd", java.util.Map.of("rowid", "7"))).isEqualTo(2);
        }
    }

    @Test
    void ratings_keep_the_reputation_of_what_they_rate() {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            store.update("INSERT INTO stagnation_strategies(name, description) VALUES ('flashback', 'recall a distant entry')");
            store.update("INSERT INTO thinking_methods(name, description) VALUES ('analogy', 'start from an analogy')");
            store.update("INSERT INTO ratings(agent_id, target_type, target_id, rating) VALUES ('me', 'stagnation_strategy', 1, 4)");
            store.update("INSERT INTO ratings(agent_id, target_type, target_id, rating) VALUES ('peer', 'stagnation_strategy', 1, 2)");
            store.update("INSERT INTO ratings(agent_id, target_type, target_id, rating) VALUES ('me', 'thinking_method', 1, 5)");
            assertThat(store.queryOne("SELECT reputation FROM stagnation_strategies", rs -> rs.getDouble(1))).contains(3.0);
            assertThat(store.queryOne("SELECT reputation FROM thinking_methods", rs -> rs.getDouble(1))).contains(5.0);
            store.update("UPDATE ratings SET target_type = 'thinking_method' WHERE agent_id = 'peer'");
            assertThat(store.queryOne("SELECT reputation FROM stagnation_strategies", rs -> rs.getDouble(1))).contains(4.0);
            assertThat(store.queryOne("SELECT reputation FROM thinking_methods", rs -> rs.getDouble(1))).contains(3.5);
            store.update("DELETE FROM ratings WHERE agent_id = 'me'");
            assertThat(store.queryOne("SELECT reputation FROM stagnation_strategies", rs -> rs.getDouble(1))).contains(0.0);
            assertThat(store.queryOne("SELECT reputation FROM thinking_methods", rs -> rs.getDouble(1))).contains(2.0);
        }
    }

    @Test
    void reopening_a_migrated_file_applies_nothing_twice() {
        Store.open(dir.resolve("agent.db"), clock).close();
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            assertThat(store.queryLong("SELECT count(*) FROM schema_version")).isEqualTo(Migrator.known().size());
        }
    }

    @Test
    void a_file_with_a_newer_schema_is_refused_with_a_clear_message() {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            store.update("INSERT INTO schema_version(version, description, applied_at) VALUES (999, 'future', 'x')");
        }
        assertThatThrownBy(() -> Store.open(dir.resolve("agent.db"), clock))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("schema version 999")
                .hasMessageContaining("upgrade hmp-agent");
    }

    @Test
    void a_file_that_is_not_sqlite_is_refused_naming_the_file() throws IOException {
        Path junk = dir.resolve("junk.db");
        Files.writeString(junk, "this is not a database, just some text that is long enough to have a header ".repeat(20));
        assertThatThrownBy(() -> Store.open(junk, clock))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("junk.db")
                .hasMessageContaining("not an SQLite database");
    }

    @Test
    void an_sqlite_file_of_another_program_is_left_alone() throws Exception {
        Path other = dir.resolve("other.db");
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + other)) {
            c.createStatement().execute("CREATE TABLE invoices(id INTEGER PRIMARY KEY)");
        }
        assertThatThrownBy(() -> Store.open(other, clock))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("another program's SQLite file")
                .hasMessageContaining("--db");
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + other);
             java.sql.ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM sqlite_master WHERE type = 'table'")) {
            assertThat(rs.getInt(1)).isEqualTo(1);
        }
    }

    @Test
    void a_missing_directory_is_named() {
        assertThatThrownBy(() -> Store.open(dir.resolve("nope/agent.db"), clock))
                .hasMessageContaining("does not exist");
    }

    @Test
    void a_failed_transaction_leaves_nothing_behind() {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            NotesDao notes = new NotesDao(store);
            assertThatThrownBy(() -> store.inTransaction(() -> {
                notes.add("kept?", "user", 0, null);
                throw new IllegalStateException("boom");
            })).hasMessage("boom");
            assertThat(notes.unreadCount()).isZero();
        }
    }

    @Test
    void every_migration_file_is_listed_in_the_index() throws IOException {
        Path folder = Path.of("src/main/resources/db");
        try (Stream<Path> files = Files.list(folder)) {
            List<String> onDisk = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".sql")).sorted().toList();
            assertThat(Migrator.known().stream().map(m -> m.resource().substring(3)).toList()).isEqualTo(onDisk);
        }
    }

    @Test
    void script_splitter_keeps_trigger_bodies_whole() {
        List<String> parts = SqlScript.split("""
                CREATE TABLE a(x); -- a comment; with a semicolon
                CREATE TRIGGER t AFTER INSERT ON a BEGIN
                  UPDATE a SET x = CASE WHEN x > 0 THEN 1 ELSE 0 END; INSERT INTO a VALUES (';');
                END;
                INSERT INTO a VALUES ('it''s; fine');
                """);
        assertThat(parts).hasSize(3);
        assertThat(parts.get(1)).startsWith("CREATE TRIGGER").endsWith("END");
        assertThat(parts.get(2)).isEqualTo("INSERT INTO a VALUES ('it''s; fine')");
    }

    @Test
    void context_queries_use_indexes() {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            String plan = String.join("\n", store.query(
                    "EXPLAIN QUERY PLAN SELECT id FROM notes WHERE read = 0 AND source <> 'llm' AND priority >= 0 ORDER BY id LIMIT 20",
                    rs -> rs.getString(4)));
            assertThat(plan).contains("idx_notes_unread");
            for (String q : List.of(
                    "SELECT id FROM process_log WHERE status <> 'close' AND seen_tick IS NOT NULL ORDER BY id DESC LIMIT 20",
                    "SELECT id FROM process_log WHERE seen_tick IS NULL AND status <> 'close' ORDER BY id LIMIT 20",
                    "SELECT count(*) FROM process_log WHERE seen_tick IS NULL AND status NOT IN ('close', 'running', 'pending') "
                            + "AND name <> 'llm_call'",
                    "SELECT id FROM process_log WHERE tick_id = 3 ORDER BY id",
                    "SELECT coalesce(max(tick_id), 0) FROM agent_log")) {
                String p = String.join("\n", store.query("EXPLAIN QUERY PLAN " + q, rs -> rs.getString(4)));
                assertThat(p).as(q).contains("USING").doesNotContain("USE TEMP B-TREE");
            }
            // the latest K replies walk the rowid b-tree backwards and stop after K rows
            String latest = String.join("\n", store.query(
                    "EXPLAIN QUERY PLAN SELECT id FROM llm_recent_responses ORDER BY id DESC LIMIT 5", rs -> rs.getString(4)));
            assertThat(latest).doesNotContain("USE TEMP B-TREE");
        }
    }

    @Test
    void data_version_moves_when_another_connection_commits_and_only_then() {
        try (Store mine = Store.open(dir.resolve("agent.db"), clock); Store theirs = mine.connectAgain()) {
            long v0 = mine.dataVersion();
            assertThat(mine.dataVersion()).isEqualTo(v0);
            new NotesDao(mine).add("my own write", "user", 0, null);
            assertThat(mine.dataVersion()).as("its own commits do not count").isEqualTo(v0);
            new NotesDao(theirs).add("another connection's", "cli", 0, null);
            assertThat(mine.dataVersion()).isNotEqualTo(v0);
        }
    }
}
