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
        SafetyControl.Change o = control.halt("deploying", ann);

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
        SafetyControl.Change again = control.halt("two", ann);
        assertThat(again.result()).isEqualTo(SafetyControl.Result.ALREADY);
        assertThat(control.current().detail()).isEqualTo("one");
        assertThat(new SafetyDao(store).latestAudit(10)).hasSize(1);
        assertThat(new ControlRequestsDao(store).after(0)).hasSize(2);
    }

    @Test
    void unlock_releases_a_halt_and_is_audited_and_on_an_active_agent_says_so() {
        assertThat(control.unlock(null, ann).result()).isEqualTo(SafetyControl.Result.ALREADY);
        control.halt("x", ann);
        SafetyControl.Change o = control.unlock("done", ann);
        assertThat(o.result()).isEqualTo(SafetyControl.Result.MOVED);
        assertThat(control.current().active()).isTrue();
        assertThat(new SafetyDao(store).latestAudit(10)).extracting(SafetyDao.Audit::event).containsExactly("halt", "unlock");
    }

    @Test
    void a_budget_stop_is_not_released_by_unlock() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + store.path())) {
            c.createStatement().execute("UPDATE safety_state SET state = 'STOPPED', reason = 'budget'");
        }
        SafetyControl.Change o = control.unlock("please", ann);
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

    void set(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + store.path())) {
            c.createStatement().execute(sql);
        }
    }

    /** rules_json, task_ticks, task_tokens, task_started_at, extra_budget, updated_at of safety_counters. */
    java.util.List<String> counters() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + store.path());
             java.sql.ResultSet rs = c.createStatement().executeQuery("SELECT rules_json, task_ticks, task_tokens, "
                     + "task_started_at, extra_budget, updated_at FROM safety_counters WHERE id = 1")) {
            assertThat(rs.next()).isTrue();
            java.util.List<String> row = new java.util.ArrayList<>();
            for (int i = 1; i <= 6; i++) row.add(rs.getString(i));
            return row;
        }
    }

    void busyTask() throws Exception {
        set("UPDATE safety_counters SET rules_json = '{\"streaks\":{\"abc\":4}}', task_ticks = 37, task_tokens = 99000, "
                + "task_started_at = '2026-11-22T08:00:00Z', extra_budget = 500");
    }

    @Test
    void add_budget_releases_a_budget_stop_adds_the_tokens_and_audits_it_in_one_move() throws Exception {
        busyTask();
        set("UPDATE safety_state SET state = 'STOPPED', reason = 'budget', detail = 'task used 100000 of 100000 tokens'");
        clock.advance(Duration.ofMinutes(5));

        SafetyControl.Change o = control.unlock("one more try", ann, 20_000);

        assertThat(o.result()).isEqualTo(SafetyControl.Result.MOVED);
        assertThat(o.budgetAdded()).isEqualTo(20_000);
        assertThat(o.before().label()).isEqualTo("STOPPED(budget)");
        assertThat(control.current().label()).isEqualTo("ACTIVE");
        assertThat(control.extraBudget()).isEqualTo(20_500);
        assertThat(new SafetyDao(store).latestAudit(10)).singleElement().satisfies(a -> {
            assertThat(a.event()).isEqualTo("unlock");
            assertThat(a.fromState()).isEqualTo("STOPPED(budget)");
            assertThat(a.toState()).isEqualTo("ACTIVE");
            assertThat(a.detail()).isEqualTo("+20000 tokens (--add-budget): one more try");
            assertThat(a.user()).isEqualTo("ann");
        });
        assertThat(counters()).as("rules and ticks reset; the task and its tokens go on")
                .containsExactly("{}", "0", "99000", "2026-11-22T08:00:00Z", "20500", "2026-11-22T09:05:00Z");
        assertThat(new ControlRequestsDao(store).after(0)).extracting(ControlRequestsDao.Request::kind)
                .containsExactly("unlock");
    }

    @Test
    void a_budget_stop_without_more_budget_is_refused_and_nothing_changes() throws Exception {
        busyTask();
        set("UPDATE safety_state SET state = 'STOPPED', reason = 'budget'");
        java.util.List<String> before = counters();

        assertThat(control.unlock("please", ann, 0).result()).isEqualTo(SafetyControl.Result.REFUSED);
        assertThat(counters()).isEqualTo(before);
        assertThat(new ControlRequestsDao(store).after(0)).isEmpty();
    }

    @Test
    void a_quota_stop_is_refused_even_with_more_budget() throws Exception {
        set("UPDATE safety_state SET state = 'STOPPED', reason = 'quota'");

        assertThat(control.unlock("please", ann, 1_000).result()).isEqualTo(SafetyControl.Result.REFUSED);
        assertThat(control.current().label()).isEqualTo("STOPPED(quota)");
        assertThat(control.extraBudget()).isZero();
        assertThat(new SafetyDao(store).latestAudit(10)).isEmpty();
    }

    @Test
    void every_unlock_resets_the_behavioural_counters_and_starts_a_new_task() throws Exception {
        for (String state : new String[] {"SAFETY_LOCKOUT", "ERROR_PAUSED"}) {
            busyTask();
            set("UPDATE safety_state SET state = '" + state + "', reason = NULL");
            clock.advance(Duration.ofMinutes(1));

            assertThat(control.unlock("looked at it", ann).result()).as(state).isEqualTo(SafetyControl.Result.MOVED);

            String now = clock.instant().toString();
            // a new task starts with the configured budget: budget added to the last task is not carried over
            assertThat(counters()).as(state).containsExactly("{}", "0", "0", now, "0", now);
        }
        busyTask();
        control.halt("lunch", ann);
        control.unlock(null, ann);
        assertThat(counters().subList(0, 3)).as("a halt too").containsExactly("{}", "0", "0");
    }

    @Test
    void more_budget_given_with_another_stop_is_added_and_a_new_task_starts() throws Exception {
        busyTask();
        set("UPDATE safety_state SET state = 'SAFETY_LOCKOUT', reason = NULL");

        SafetyControl.Change o = control.unlock(null, ann, 1_000);

        assertThat(o.result()).isEqualTo(SafetyControl.Result.MOVED);
        assertThat(counters().subList(0, 3)).containsExactly("{}", "0", "0");
        assertThat(control.extraBudget()).as("the new task gets what was added now, not what the last one had")
                .isEqualTo(1_000);
    }

    @Test
    void an_active_agent_gets_no_budget_and_keeps_its_counters() throws Exception {
        busyTask();
        java.util.List<String> before = counters();

        assertThat(control.unlock("just in case", ann, 5_000).result()).isEqualTo(SafetyControl.Result.ALREADY);
        assertThat(counters()).isEqualTo(before);
        assertThat(new SafetyDao(store).latestAudit(10)).isEmpty();
    }

    @Test
    void a_negative_budget_is_a_programming_error() {
        assertThatThrownBy(() -> control.unlock(null, ann, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void only_more_budget_has_an_edge_out_of_a_budget_stop_and_only_a_config_change_leaves_a_quota_stop() {
        SafetyStatus budget = new SafetyStatus(SafetyState.STOPPED, Optional.of(StopReason.BUDGET), "", Instant.EPOCH);
        SafetyStatus quota = new SafetyStatus(SafetyState.STOPPED, Optional.of(StopReason.QUOTA), "", Instant.EPOCH);
        assertThat(SafetyStates.require(SafetyStates.Event.UNLOCK_ADD_BUDGET, budget).to()).isEqualTo(SafetyState.ACTIVE);
        for (SafetyStates.Event event : SafetyStates.Event.values()) {
            if (event == SafetyStates.Event.CONFIG_CHANGE) continue;
            assertThat(SafetyStates.edge(event, quota)).as(event.name()).isEmpty();
        }
        assertThat(SafetyStates.require(SafetyStates.Event.CONFIG_CHANGE, quota).to()).isEqualTo(SafetyState.ACTIVE);
        assertThat(SafetyStates.edge(SafetyStates.Event.CONFIG_CHANGE, budget)).isEmpty();
        assertThat(SafetyStates.Event.UNLOCK_ADD_BUDGET.auditName()).isEqualTo("unlock");
    }
}
