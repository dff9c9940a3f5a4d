package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hmpagent.store.StoreException.Kind;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/** Every SQLite failure reaches callers as a {@link StoreException} with a kind and a one-line message. */
class StoreErrorsTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-21T10:00:00Z");
    static final Path DB = Path.of("/data/agent.db");

    @ParameterizedTest
    @CsvSource({
            "SQLITE_BUSY, BUSY", "SQLITE_BUSY_SNAPSHOT, BUSY", "SQLITE_LOCKED, BUSY", "SQLITE_PROTOCOL, BUSY",
            "SQLITE_FULL, FULL",
            "SQLITE_IOERR, IO", "SQLITE_IOERR_SHORT_READ, IO", "SQLITE_IOERR_FSYNC, IO", "SQLITE_CANTOPEN, IO",
            "SQLITE_READONLY, READ_ONLY", "SQLITE_READONLY_DBMOVED, READ_ONLY", "SQLITE_PERM, READ_ONLY",
            "SQLITE_CORRUPT, CORRUPT", "SQLITE_CORRUPT_INDEX, CORRUPT",
            "SQLITE_NOTADB, NOT_A_DATABASE",
            "SQLITE_CONSTRAINT_UNIQUE, OTHER", "SQLITE_ERROR, OTHER", "SQLITE_MISUSE, OTHER"})
    void sqlite_result_codes_map_to_kinds(SQLiteErrorCode code, Kind kind) {
        StoreException e = SqliteErrors.translate("INSERT INTO notes …", new SQLiteException("[" + code.name() + "] "
                + code.message + " (some detail)", code), DB);
        assertThat(e.kind()).isEqualTo(kind);
        assertThat(e.getMessage()).doesNotContain("\n").contains("/data/agent.db");
        assertThat(e.writeFailure()).isEqualTo(kind == Kind.BUSY || kind == Kind.FULL || kind == Kind.IO
                || kind == Kind.READ_ONLY);
    }

    @Test
    void a_damaged_file_says_so_and_names_agent_check() {
        StoreException e = SqliteErrors.translate("SELECT …", new SQLiteException(
                "[SQLITE_CORRUPT] The database disk image is malformed (database disk image is malformed)",
                SQLiteErrorCode.SQLITE_CORRUPT), DB);
        assertThat(e.getMessage()).isEqualTo("/data/agent.db is damaged (database disk image is malformed): "
                + "stop the agent and run `agent check --db /data/agent.db`");
    }

    @Test
    void a_full_disk_is_kind_full_and_a_write_failure() {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            store.setMaxPageCount(1);
            assertThatThrownBy(() -> new NotesDao(store).add("x".repeat(100_000), "user", 0, null))
                    .isInstanceOfSatisfying(StoreException.class, e -> {
                        assertThat(e.kind()).isEqualTo(Kind.FULL);
                        assertThat(e.writeFailure()).isTrue();
                        assertThat(e.getMessage()).contains("agent.db").doesNotContain("\n");
                    });
        }
    }

    @Test
    void a_lock_held_too_long_says_what_happened_and_promises_nothing() throws Exception {
        Path db = dir.resolve("agent.db");
        Store.open(db, clock).close();
        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + db);
             Statement st = other.createStatement();
             Store store = Store.open(db, clock, 50)) {
            st.execute("BEGIN IMMEDIATE");
            assertThatThrownBy(() -> new NotesDao(store).add("hi", "user", 0, null))
                    .isInstanceOfSatisfying(StoreException.class, e -> {
                        assertThat(e.kind()).isEqualTo(Kind.BUSY);
                        assertThat(e.writeFailure()).isTrue();
                        assertThat(e.getMessage()).contains("agent.db stayed locked by another write (the running agent's or another"
                                + " process's) for over")
                                .doesNotContain("retried").doesNotContain("next tick");
                    });
            st.execute("ROLLBACK");
        }
    }

    @Test
    void a_file_that_is_not_sqlite_is_kind_not_a_database() throws Exception {
        Path junk = dir.resolve("junk.db");
        Files.writeString(junk, "plain text, long enough to look like a header to nobody ".repeat(40));
        assertThatThrownBy(() -> Store.open(junk, clock)).isInstanceOfSatisfying(StoreException.class,
                e -> assertThat(e.kind()).isEqualTo(Kind.NOT_A_DATABASE));
    }

    @Test
    void a_schema_mismatch_is_kind_schema_and_not_a_write_failure() {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            store.update("INSERT INTO schema_version(version, description, applied_at) VALUES (999, 'future', 'x')");
        }
        assertThatThrownBy(() -> Store.open(dir.resolve("agent.db"), clock)).isInstanceOfSatisfying(
                StoreException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Kind.SCHEMA);
                    assertThat(e.writeFailure()).isFalse();
                });
    }

    @Test
    void a_constraint_violation_is_other() {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            assertThatThrownBy(() -> store.update("INSERT INTO notes(text) VALUES (NULL)"))
                    .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind()).isEqualTo(Kind.OTHER));
        }
    }
}
