package dev.hmpagent.safety;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hmpagent.safety.SafetyStates.Event;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.SqlFile;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RESTING in the one transition table, and its end by the clock, by a person's message, or by a halt first. */
class RestingStateTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-27T09:00:00Z");
    final List<String> alerts = new ArrayList<>();
    Store store;
    SafetyControl control;
    Instant until;

    @BeforeEach
    void rest() {
        store = Store.open(dir.resolve("agent.db"), clock);
        control = new SafetyControl(store);
        SafetyMonitor monitor = new SafetyMonitor(store, SafetyMonitor.Limits.DEFAULTS, Guides.byName("safety"),
                alerts::add, line -> { });
        until = clock.instant().plus(Duration.ofMinutes(10));
        store.inTransaction(() -> monitor.rest(until, "the reflex saw a long run"));
        monitor.flush();
    }

    @AfterEach
    void close() {
        store.close();
    }

    List<String> audit() {
        return new SqlFile(dir.resolve("agent.db")).rows("SELECT event || ' ' || to_state FROM safety_audit ORDER BY id");
    }

    @Test
    void a_rest_comes_only_from_active_and_ends_by_itself_by_an_unlock_or_a_halt_never_by_a_budget() {
        SafetyStatus active = new SafetyStatus(SafetyState.ACTIVE, Optional.empty(), "", clock.instant());
        SafetyStatus resting = control.current();
        SafetyStatus locked = new SafetyStatus(SafetyState.SAFETY_LOCKOUT, Optional.empty(), "", clock.instant());

        assertThat(SafetyStates.require(Event.REST, active).to()).isEqualTo(SafetyState.RESTING);
        assertThat(SafetyStates.edge(Event.REST, locked)).as("a rest never overwrites a stop").isEmpty();
        assertThat(SafetyStates.edge(Event.REST_END, active)).isEmpty();
        assertThat(SafetyStates.require(Event.REST_END, resting).to()).isEqualTo(SafetyState.ACTIVE);
        assertThat(SafetyStates.require(Event.UNLOCK, resting).to()).isEqualTo(SafetyState.ACTIVE);
        assertThat(SafetyStates.require(Event.HALT, resting).toReason()).contains(StopReason.HALT);
        assertThat(SafetyStates.require(Event.LOCKOUT, resting).to()).isEqualTo(SafetyState.SAFETY_LOCKOUT);
        assertThat(SafetyStates.require(Event.ERROR_PAUSE, resting).to()).isEqualTo(SafetyState.ERROR_PAUSED);
        assertThat(SafetyStates.edge(Event.BUDGET, resting)).isEmpty();
        assertThat(SafetyStates.edge(Event.REST, resting)).isEmpty();
        assertThatThrownBy(() -> new SafetyStatus(SafetyState.RESTING, Optional.empty(), "", clock.instant()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("end time");
    }

    @Test
    void before_its_time_with_nobody_writing_the_rest_holds_and_nothing_is_written() {
        clock.advance(Duration.ofMinutes(9));

        assertThat(control.endRestIfDue()).isEmpty();
        assertThat(control.current().state()).isEqualTo(SafetyState.RESTING);
        assertThat(audit()).containsExactly("rest RESTING");
        assertThat(alerts).singleElement().asString().startsWith("RESTING: the reflex saw a long run; until " + until);

        clock.advance(Duration.ofMinutes(1));
        assertThat(control.endRestIfDue()).contains(SafetyControl.REST_TIME_UP);
        assertThat(control.current().state()).isEqualTo(SafetyState.ACTIVE);
        assertThat(audit()).containsExactly("rest RESTING", "rest_end ACTIVE");
    }

    @Test
    void a_note_from_agent_note_ends_the_rest_but_a_peers_or_the_llms_own_does_not() {
        store.tables().notes().addFromLlm("a note to myself", "llm", 1);
        store.tables().notes().add("status report", "peer", 0, null);
        assertThat(control.endRestIfDue()).isEmpty();

        store.tables().notes().add("wake up, please", "cli", 0, null);

        assertThat(control.endRestIfDue()).contains("a message from a person");
        assertThat(control.current().active()).isTrue();
    }

    @Test
    void a_halt_during_the_rest_stops_the_agent_and_the_rest_no_longer_ends_by_itself() {
        control.halt("maintenance", new Requester(1, "alice", "host"));
        clock.advance(Duration.ofHours(1));

        assertThat(control.endRestIfDue()).isEmpty();
        assertThat(control.current().label()).isEqualTo("STOPPED(halt)");
        assertThat(control.current().until()).isEmpty();
    }
}
