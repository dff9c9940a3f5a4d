package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OwnershipTest {
    @TempDir Path dir;

    @Test
    void a_new_file_is_marked_as_the_agents_in_its_header() {
        try (Store store = Store.open(dir.resolve("agent.db"), Clock.systemUTC())) {
            assertThat(store.queryLong("PRAGMA application_id")).isEqualTo(Ownership.APPLICATION_ID);
        }
    }

    @Test
    void an_empty_sqlite_file_is_the_agents_to_fill() throws Exception {
        Path db = dir.resolve("agent.db");
        DriverManager.getConnection("jdbc:sqlite:" + db).close();
        Files.write(db, new byte[0]);
        try (Store store = Store.open(db, Clock.systemUTC())) {
            assertThat(store.tableExists("notes")).isTrue();
        }
    }

    @Test
    void a_file_with_other_tables_is_refused_read_only_too_without_a_wal_or_a_write() throws Exception {
        Path db = dir.resolve("shop.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            c.createStatement().execute("CREATE TABLE orders (id INTEGER PRIMARY KEY)");
        }
        byte[] before = Files.readAllBytes(db);
        assertThatThrownBy(() -> Store.openReadOnly(db, Clock.systemUTC())).isInstanceOf(StoreException.class)
                .hasMessageContaining("another program's SQLite file (tables orders)");
        assertThatThrownBy(() -> Store.open(db, Clock.systemUTC())).isInstanceOf(StoreException.class)
                .satisfies(e -> assertThat(((StoreException) e).kind()).isEqualTo(StoreException.Kind.SCHEMA));
        assertThat(Files.readAllBytes(db)).isEqualTo(before);
        assertThat(dir.resolve("shop.db-wal")).doesNotExist();
    }
}
