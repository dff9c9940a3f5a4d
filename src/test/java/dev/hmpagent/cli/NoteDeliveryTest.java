package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.safety.Guides;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.SafetyMonitor;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A note handed to a resting agent: a person's ({@code agent note}, source cli) ends the rest, a peer's ({@code agent
 * mcp serve}'s note tool, source peer) does not, and each says so.
 */
@Timeout(30)
class NoteDeliveryTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-27T09:00:00Z");
    Path db;

    @BeforeEach
    void resting() {
        db = dir.resolve("agent.db");
        try (Store store = Store.open(db, clock)) {
            SafetyMonitor monitor = new SafetyMonitor(store, SafetyMonitor.Limits.DEFAULTS, Guides.byName("safety"),
                    line -> { }, line -> { });
            store.inTransaction(() -> monitor.rest(clock.instant().plus(Duration.ofMinutes(10)), "a test's rest"));
            monitor.flush();
        }
    }

    String restEnds() {
        try (Store store = Store.open(db, clock)) {
            return new SafetyControl(store).endRestIfDue().orElse("holds");
        }
    }

    @Test
    void a_peers_note_waits_out_the_rest_and_says_so() {
        List<String> lines = NoteDelivery.deliver(db, clock, "from another agent", "peer", 0, "mcp");

        assertThat(lines).hasSize(2);
        assertThat(lines.get(1)).startsWith("resting: ").contains("a peer's note does not end the rest");
        assertThat(restEnds()).isEqualTo("holds");
    }

    @Test
    void a_persons_note_ends_the_rest_and_says_so() {
        List<String> lines = NoteDelivery.deliver(db, clock, "from a person", "cli", 0, null);

        assertThat(lines.get(1)).startsWith("resting: ").endsWith("; this note ends the rest");
        assertThat(restEnds()).isEqualTo("a message from a person");
    }
}
