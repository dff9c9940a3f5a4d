package dev.hmpagent.safety;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hmpagent.store.ControlRequestsDao;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.SafetyDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SafetyControlTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-22T09:00:00Z");
    final Requester ann = new Requester(4242, "ann", "box");
    Store store;
    SafetyControl control;

    @BeforeEach
    void open() {
        store = Store.open(dir.resolve("agent.db"), clock);
        control = new SafetyControl(store);
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void a_new_file_is_active() {
        assertThat(control.current().label()).isEqualTo("ACTIVE");
    }

    @Test
    void halt_stops_persists_audits_and_asks_a_running_agent_to_act() {
        clock.advance(Duration.ofMinutes(1));
        SafetyControl.Outcome o = control.halt("deploying", ann);

        assertThat(o.result()).isEqualTo(SafetyControl.Result.MOVED);
        assertThat(o.after().label()).isEqualTo("STOPPED(halt)");
        assertThat(o.after().detail()).isEqualTo("deploying");
        assertThat(o.after().since()).isEqualTo(Instant.parse("2026-11-22T09:01:00Z"));
        store.close();
        store = Store.open(dir.resolve("agent.db"), clock);
        assertThat(new SafetyControl(store).current().label()).as("a restart stays stopped").isEqualTo("STOPPED(halt)");
        assertThat(new SafetyDao(store).latestAudit(10)).singleElement().satisfies(a -> {
            assertThat(a.event()).isEqualTo("halt");
            assertThat(a.fromState()).isEqualTo("ACTIVE");
            assertThat(a.toState()).isEqualTo("STOPPED(halt)");
            assertThat(a.detail()).isEqualTo("deploying");
            assertThat(a.pid()).isEqualTo(4242);
            assertThat(a.user()).isEqualTo("ann");
        });
        assertThat(new ControlRequestsDao(store).after(0)).extracting(ControlRequestsDao.Request::kind)
                .containsExactly("halt");
    }

    @Test
    void a_second_halt_changes_nothing_but_still_reaches_a_running_agent() {
        control.halt("one", ann);
        SafetyControl.Outcome again = control.halt("two", ann);
        assertThat(again.result()).isEqualTo(SafetyControl.Result.ALREADY);
        assertThat(control.current().detail()).isEqualTo("one");
        assertThat(new SafetyDao(store).latestAudit(10)).hasSize(1);
        assertThat(new ControlRequestsDao(store).after(0)).hasSize(2);
    }

    @Test
    void unlock_releases_a_halt_and_is_audited_and_on_an_active_agent_says_so() {
        assertThat(control.unlock(null, ann).result()).isEqualTo(SafetyControl.Result.ALREADY);
        control.halt("x", ann);
        SafetyControl.Outcome o = control.unlock("done", ann);
        assertThat(o.result()).isEqualTo(SafetyControl.Result.MOVED);
        assertThat(control.current().active()).isTrue();
        assertThat(new SafetyDao(store).latestAudit(10)).extracting(SafetyDao.Audit::event).containsExactly("halt", "unlock");
    }

    @Test
    void a_budget_stop_is_not_released_by_unlock() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + store.path())) {
            c.createStatement().execute("UPDATE safety_state SET state = 'STOPPED', reason = 'budget'");
        }
        SafetyControl.Outcome o = control.unlock("please", ann);
        assertThat(o.result()).isEqualTo(SafetyControl.Result.REFUSED);
        assertThat(control.current().label()).isEqualTo("STOPPED(budget)");
        assertThat(new SafetyDao(store).latestAudit(10)).isEmpty();
    }

    @Test
    void halt_then_unlock_does_not_release_a_budget_stop() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + store.path())) {
            c.createStatement().execute("UPDATE safety_state SET state = 'STOPPED', reason = 'budget'");
        }
        assertThat(control.halt("me too", ann).result()).isEqualTo(SafetyControl.Result.ALREADY);
        assertThat(control.unlock("sneaky", ann).result()).isEqualTo(SafetyControl.Result.REFUSED);
        assertThat(control.current().label()).isEqualTo("STOPPED(budget)");
    }

    @Test
    void the_audit_is_append_only() throws Exception {
        control.halt("x", ann);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + store.path())) {
            assertThatThrownBy(() -> c.createStatement().execute("UPDATE safety_audit SET detail = 'nothing happened'"))
                    .hasMessageContaining("append-only");
            assertThatThrownBy(() -> c.createStatement().execute("DELETE FROM safety_audit"))
                    .hasMessageContaining("append-only");
        }
    }

    @Test
    void the_transition_table_refuses_moves_it_does_not_have() {
        SafetyStatus budget = new SafetyStatus(SafetyState.STOPPED, Optional.of(StopReason.BUDGET), "", Instant.EPOCH);
        assertThat(SafetyStates.edge(SafetyStates.Event.UNLOCK, budget)).isEmpty();
        assertThatThrownBy(() -> SafetyStates.require(SafetyStates.Event.UNLOCK, budget))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("UNLOCK from STOPPED(budget)");
        SafetyStatus active = new SafetyStatus(SafetyState.ACTIVE, Optional.empty(), "", Instant.EPOCH);
        assertThat(SafetyStates.require(SafetyStates.Event.HALT, active).toReason()).contains(StopReason.HALT);
        assertThat(SafetyStates.edge(SafetyStates.Event.HALT, budget))
                .as("no halt edge out of a budget stop: halt then unlock must not release it").isEmpty();
    }
}
