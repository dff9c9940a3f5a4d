package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TablesTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-21T10:00:00Z");

    @Test
    void a_connection_makes_its_daos_once_and_another_connection_has_its_own() {
        try (Store store = Store.open(dir.resolve("agent.db"), clock); Store other = store.connectAgain()) {
            assertThat(store.tables()).isSameAs(store.tables());
            assertThat(store.tables().notes()).isSameAs(store.tables().notes());
            assertThat(other.tables()).isNotSameAs(store.tables());
            long id = store.tables().notes().add("hello", "cli", 1, "");
            assertThat(other.tables().notes().unreadCount()).isEqualTo(1);
            assertThat(id).isPositive();
        }
    }
}
