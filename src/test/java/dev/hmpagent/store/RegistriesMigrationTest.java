package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hmpagent.testing.MutableClock;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** V007: the HMP registries, the peer outbox columns of notes, and the seeded catalogues. */
class RegistriesMigrationTest {
    static final List<String> TABLES = List.of("agent_scripts", "agent_tables", "users", "users_group",
            "external_services", "external_accounts");
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-21T10:00:00Z");

    @Test
    void a_fresh_file_gets_the_registries_and_the_seeded_catalogues() {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            for (String t : TABLES) assertThat(store.tableExists(t)).as(t).isTrue();
            assertThat(columns(store, "notes")).contains("peer_id", "delivery_status");
            assertThat(columns(store, "agent_scripts")).containsExactly("id", "name", "version", "code", "language",
                    "description", "tags", "created_at", "updated_at", "llm_id");
            assertThat(columns(store, "external_accounts")).containsExactly("id", "service_id", "login", "password",
                    "purpose", "active", "inactive_reason", "secret_ref");
            assertThat(columns(store, "users")).containsExactly("user_id", "ban", "username", "badges", "did", "mail",
                    "password_hash", "info", "profile", "contacts", "language", "groups", "operator");
            List<String> strategies = store.query("SELECT name FROM stagnation_strategies ORDER BY id", rs -> rs.getString(1));
            assertThat(strategies).hasSize(15).startsWith("Mesh request", "Check the outside world")
                    .contains("Change of context", "Flashback", "Meta-analysis").endsWith("Radical pause");
            assertThat(store.queryLong("SELECT count(*) FROM stagnation_strategies WHERE source = 'internal' "
                    + "AND reputation = 0")).isEqualTo(15);
            // V010: the three that need the outside world are inactive, never faked; V018: the mesh request is active
            // (the reflex finds it unavailable while no peer may be asked)
            assertThat(store.queryLong("SELECT count(*) FROM stagnation_strategies WHERE active = 1")).isEqualTo(13);
            assertThat(store.query("SELECT name FROM thinking_methods ORDER BY id", rs -> rs.getString(1)))
                    .containsExactly("Start with an analogy", "Check the converse", "Question for an opponent",
                            "Iterative refinement");
        }
    }

    @Test
    void a_file_at_v004_is_migrated_and_keeps_its_own_catalogue_and_notes() throws Exception {
        Path db = fileAt(4);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            st.execute("INSERT INTO stagnation_strategies(name, description, source) VALUES ('mine', 'my own way', 'user-defined')");
            st.execute("INSERT INTO notes(text, source) VALUES ('older note', 'user')");
        }
        try (Store store = Store.open(db, clock)) {
            assertThat(store.queryLong("SELECT max(version) FROM schema_version")).isEqualTo(Migrator.known().size());
            for (String t : TABLES) assertThat(store.tableExists(t)).as(t).isTrue();
            assertThat(store.query("SELECT name FROM stagnation_strategies", rs -> rs.getString(1)))
                    .as("a filled catalogue is left as it is").containsExactly("mine");
            assertThat(store.queryLong("SELECT count(*) FROM thinking_methods")).as("an empty one is seeded").isEqualTo(4);
            assertThat(store.query("SELECT text, peer_id, delivery_status FROM notes", rs -> rs.getString(1) + "|"
                    + rs.getString(2) + "|" + rs.getString(3))).containsExactly("older note|null|null");
        }
    }

    @Test
    void an_account_row_cannot_hold_a_secret_whoever_writes_it() {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            store.update("INSERT INTO external_services(name, type, base_url) VALUES ('Reddit', 'forum', 'https://reddit.com')");
            store.update("INSERT INTO external_accounts(service_id, login, secret_ref) VALUES (1, 'bot', 'env:REDDIT_TOKEN')");
            store.update("INSERT INTO external_accounts(service_id, login, secret_ref) VALUES (1, 'bot2', 'keyring:hmp/reddit-bot')");
            assertThat(store.query("SELECT password FROM external_accounts", rs -> rs.getString(1))).containsOnly("");

            for (String bad : List.of(
                    "INSERT INTO external_accounts(service_id, login, password, secret_ref) VALUES (1, 'x', 'hunter2', 'env:X')",
                    "UPDATE external_accounts SET password = 'hunter2'",
                    "INSERT INTO external_accounts(service_id, login, secret_ref) VALUES (1, 'x', 'sk-live-1234567890abcdef')",
                    "INSERT INTO external_accounts(service_id, login, secret_ref) VALUES (1, 'x', 'hunter2')",
                    "INSERT INTO external_accounts(service_id, login, secret_ref) VALUES (1, 'x', 'env:MY-TOKEN=abc')",
                    "INSERT INTO external_accounts(service_id, login, secret_ref) VALUES (1, 'x', 'keyring:a b')",
                    "INSERT INTO external_accounts(service_id, login) VALUES (1, 'x')")) {
                assertThatThrownBy(() -> store.update(bad)).as(bad).isInstanceOf(StoreException.class)
                        .hasMessageContaining("constraint");
            }
            assertThat(store.queryLong("SELECT count(*) FROM external_accounts")).isEqualTo(2);
        }
    }

    @Test
    void agent_tables_records_only_names_in_the_reserved_namespace() {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            assertThatThrownBy(() -> store.update("INSERT INTO agent_tables(table_name, schema) VALUES ('notes', 'x')"))
                    .hasMessageContaining("constraint");
        }
    }

    private static List<String> columns(Store store, String table) {
        return store.query("SELECT name FROM pragma_table_info(?) ORDER BY cid", rs -> rs.getString(1), table);
    }

    /** A file as hmp-agent left it at {@code version}: the migrations up to it applied, nothing later. */
    private Path fileAt(int version) throws Exception {
        Path db = dir.resolve("agent.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            st.execute("PRAGMA journal_mode = WAL");
            st.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL, "
                    + "applied_at TEXT NOT NULL)");
            for (Migrator.Migration m : Migrator.known()) {
                if (m.version() > version) break;
                for (String statement : SqlScript.split(resource(m.resource()))) st.execute(statement);
                st.execute("INSERT INTO schema_version VALUES (" + m.version() + ", '" + m.description()
                        + "', '2026-11-21T00:00:00Z')");
            }
        }
        return db;
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = RegistriesMigrationTest.class.getClassLoader().getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
