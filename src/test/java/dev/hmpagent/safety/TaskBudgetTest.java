package dev.hmpagent.safety;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.LlmCall;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.SqlFile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The task's budget as the SafetyMonitor asks it before every call: warnings, the estimate's refusal, the release. */
class TaskBudgetTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    final List<String> notices = new ArrayList<>();
    Store store;
    SafetyMonitor monitor;
    long tick;

    @BeforeEach
    void open() {
        store = Store.open(dir.resolve("agent.db"), clock);
        // the tick cap is not under test: one the budget meets long before
        monitor = monitor(150_000, 0);
        store.inTransaction(() -> store.tables().notes().add("do the work", "user", 0, null));
        monitor.newTask(1);
    }

    @AfterEach
    void close() {
        store.close();
    }

    private SafetyMonitor monitor(long budget, long daily) {
        // nor are the calls without progress (these calls run no commands): a stop they cannot reach
        SafetyRules.Limits rules = new SafetyRules.Limits(3, 5, 10, 8, 2, 3, 5, 20, 10, 10_000, 10_001, 5);
        return new SafetyMonitor(store, new SafetyMonitor.Limits(budget, 10_000, rules, daily),
                Guides.byName("learning"), r -> { }, notices::add);
    }

    /** One main call that cost {@code tokens}, recorded as the cycle records it: its llm_calls row and the counters. */
    private void call(long tokens) {
        clock.advance(Duration.ofSeconds(1));
        long t = ++tick;
        store.inTransaction(() -> {
            store.tables().llmCalls().insert(t, new LlmCall(LlmCall.Purpose.MAIN, clock.instant(), "m", "e",
                    (int) tokens - 100, 0, 100, false, 10, LlmCall.Outcome.OK, ""));
            monitor.afterLlmCall(tokens, true);
        });
    }

    private List<String> warnings() {
        return notices.stream().filter(l -> l.contains("% of the task's budget")).toList();
    }

    private String state() {
        return new SafetyControl(store).current().label();
    }

    @Test
    void warnings_at_50_and_80_percent_say_the_calls_left_once_each_and_again_after_a_raise() {
        for (int i = 0; i < 48; i++) {
            assertThat(monitor.beforeLlmCall(3_000)).isTrue();
            call(2_500);
        }
        assertThat(monitor.beforeLlmCall(3_000)).isTrue();
        assertThat(warnings()).containsExactly(
                "50 % of the task's budget is spent: 75,000 of 150,000 tokens, about 30 more calls at this rate",
                "80 % of the task's budget is spent: 120,000 of 150,000 tokens, about 12 more calls at this rate");

        // a person adds 100,000: 120,000 of 250,000 is 48 %, and 50 % is said again when it is crossed
        store.inTransaction(() -> store.tables().safetyCounters().addExtraBudget(100_000, clock.instant()));
        assertThat(monitor.beforeLlmCall(3_000)).isTrue();
        assertThat(warnings()).hasSize(2);
        call(2_500);
        assertThat(monitor.beforeLlmCall(3_000)).isTrue();
        assertThat(warnings()).as("49 %").hasSize(2);
        call(2_500);
        assertThat(monitor.beforeLlmCall(3_000)).isTrue();
        assertThat(warnings()).hasSize(3).last().isEqualTo(
                "50 % of the task's budget is spent: 125,000 of 250,000 tokens, about 50 more calls at this rate");
        assertThat(state()).isEqualTo("ACTIVE");
    }

    @Test
    void a_new_task_warns_again_and_counts_its_own_calls() {
        call(40_000);
        call(40_000);
        assertThat(monitor.beforeLlmCall(1_000)).isTrue();
        clock.advance(Duration.ofSeconds(1));
        store.inTransaction(() -> store.tables().notes().add("another task", "user", 0, null));
        monitor.newTask(2);
        call(40_000);
        call(40_000);
        assertThat(monitor.beforeLlmCall(1_000)).isTrue();
        assertThat(warnings()).containsExactly(
                "50 % of the task's budget is spent: 80,000 of 150,000 tokens, about 1 more call at this rate",
                "50 % of the task's budget is spent: 80,000 of 150,000 tokens, about 1 more call at this rate");
    }

    @Test
    void a_call_whose_estimate_would_cross_the_budget_is_refused_and_more_budget_resumes_exactly() {
        call(146_000);
        assertThat(monitor.beforeLlmCall(4_000)).as("146,000 + 4,000 fits exactly").isTrue();
        assertThat(monitor.beforeLlmCall(5_600)).as("146,000 + 5,600 would cross 150,000").isFalse();

        SafetyStatus stop = new SafetyControl(store).current();
        assertThat(stop.label()).isEqualTo("STOPPED(budget)");
        assertThat(stop.detail()).isEqualTo("token budget: the next call would cross it: 146,000 spent + about 5,600"
                + " for the call (its prompt and longest reply) > 150,000 tokens in this task (safety.token_budget)");
        assertThat(notices).last().asString().startsWith("STOPPED(budget): token budget: the next call would cross it")
                .endsWith("/budget +N in the REPL, or raise safety.token_budget");

        SafetyControl.Change unlocked = new SafetyControl(store).unlock("more", new Requester(1, "ann", "box"), 10_000);
        assertThat(unlocked.after().label()).isEqualTo("ACTIVE");
        assertThat(monitor.beforeLlmCall(5_600)).as("the same call goes now").isTrue();
        assertThat(store.tables().safetyCounters().current().taskTokens()).as("the task goes on").isEqualTo(146_000);
    }

    @Test
    void a_spent_budget_is_refused_whatever_the_estimate() {
        call(150_000);
        assertThat(monitor.beforeLlmCall(0)).isFalse();
        assertThat(new SafetyControl(store).current().detail())
                .isEqualTo("token budget spent: 150,000 of 150,000 tokens in this task (safety.token_budget)");
    }

    @Test
    void the_daily_budget_refuses_a_call_that_would_cross_it_too() {
        SafetyMonitor daily = monitor(1_000_000, 10_000);
        clock.advance(Duration.ofSeconds(1));
        new SqlFile(dir.resolve("agent.db")).exec("INSERT INTO agent_log(tick_id, started_at, ended_at, duration_ms,"
                + " state, llm_called, prompt_tokens, completion_tokens) VALUES (1, '2026-11-29T10:00:00Z',"
                + " '2026-11-29T10:00:01Z', 1000, 'thought', 1, 8000, 1000)");
        assertThat(store.tables().safetyCounters().tokensSince(clock.instant().minus(Duration.ofDays(1))))
                .as("the tick's tokens count for the day").isEqualTo(9_000);
        assertThat(daily.beforeDelegatedCall(1_000)).isTrue();
        assertThat(daily.beforeDelegatedCall(1_001)).isFalse();
        assertThat(new SafetyControl(store).current().detail()).isEqualTo("daily token budget: the next call would"
                + " cross it: 9,000 + about 1,001 of 10,000 tokens in the last 24 hours (safety.daily_token_budget)");
    }
}
