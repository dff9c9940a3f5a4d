package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.MutableClock;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** V013: the cursor of the unlock refusals the agent has felt; refusals audited before it are history. */
class UnlockRefusalsMigrationTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-26T10:00:00Z");

    @Test
    void a_fresh_file_starts_with_nothing_felt_and_reads_a_new_refusal_once() {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            SafetyDao safety = new SafetyDao(store);
            assertThat(store.queryLong("SELECT unlock_refusals_seen FROM safety_counters")).isZero();
            assertThat(safety.unlockRefusalsNotSeen()).isEmpty();

            store.inTransaction(() -> {
                safety.audit(new SafetyDao.Audit(clock.instant(), "halt", "ACTIVE", "STOPPED(halt)", "halt", "x", 1,
                        "u", "h"));
                safety.audit(new SafetyDao.Audit(clock.instant(), "unlock_refused", "STOPPED(halt)", "STOPPED(halt)",
                        "halt", "why", 42, "u", "h"));
            });
            assertThat(safety.unlockRefusalsNotSeen()).containsExactly(new SafetyDao.Refusal(2,
                    Instant.parse("2026-11-26T10:00:00Z"), "STOPPED(halt)", "why", 42));
            store.inTransaction(() -> safety.markUnlockRefusalSeen(2));
            assertThat(safety.unlockRefusalsNotSeen()).isEmpty();
            store.inTransaction(() -> safety.markUnlockRefusalSeen(1));
            assertThat(store.queryLong("SELECT unlock_refusals_seen FROM safety_counters")).as("never back").isEqualTo(2);
        }
    }

    @Test
    void a_file_at_v012_with_refusals_already_audited_does_not_feel_them_again() throws Exception {
        Path db = fileAt(12);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            for (String event : new String[] {"halt", "unlock_refused", "unlock_refused", "unlock"}) {
                st.execute("INSERT INTO safety_audit(at, event, from_state, to_state) VALUES ('2026-11-25T00:00:00Z', '"
                        + event + "', 'ACTIVE', 'ACTIVE')");
            }
        }
        try (Store store = Store.open(db, clock)) {
            assertThat(store.queryLong("SELECT max(version) FROM schema_version")).isEqualTo(Migrator.known().size());
            assertThat(store.queryLong("SELECT unlock_refusals_seen FROM safety_counters")).isEqualTo(3);
            assertThat(new SafetyDao(store).unlockRefusalsNotSeen()).isEmpty();
        }
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
        try (InputStream in = UnlockRefusalsMigrationTest.class.getClassLoader().getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
