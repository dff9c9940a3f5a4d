package dev.hmpagent.cycle;

import dev.hmpagent.runtime.TestWiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.AgentSection;
import dev.hmpagent.config.SafetySection;
import dev.hmpagent.delegation.LlmTasks;
import dev.hmpagent.llm.MeteredLlm;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.SafetyRules;
import dev.hmpagent.store.LlmCall;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessRow;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SafetyMonitor wired into the cycle: scripted LLM scenarios on a fake clock, asserting rows and states. */
class SafetyMonitorTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-21T10:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();
    final RecordingSink sink = new RecordingSink();
    Store store;
    Path db;
    NotesDao notes;

    @BeforeEach
    void open() {
        db = dir.resolve("agent.db");
        store = Store.open(db, clock);
        notes = new NotesDao(store);
    }

    @AfterEach
    void close() {
        store.close();
    }

    /** The safety limits given; step 5 compares locally, so no comparison call spends the budgets under test. */
    AgentConfig config(SafetySection safety) {
        AgentConfig d = dev.hmpagent.config.ConfigLoader.load(dev.hmpagent.config.ConfigSources.envOnly(
                java.util.Map.of("AGENT_STAGNATION_METHOD", "local"))).config();
        return new AgentConfig(new AgentSection(db, "tester"), d.llm(), d.cycle(), d.context(), d.run(), d.policy(),
                d.files(), d.shell(), d.cleanup(), safety, d.stagnation());
    }

    SafetySection safety() {
        return AgentConfig.defaults().safety();
    }

    Cycle cycle() {
        return TestWiring.cycle(config(safety()), store, llm, sink, clock);
    }

    static String commands(String json) {
        return "\n# Commands:\n```json\n" + json + "\n```\n# End commands\n";
    }

    long count(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); ResultSet rs = c.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    void sql(String statement) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            c.createStatement().execute(statement);
        }
    }

    String state() {
        return new SafetyControl(store).current().label();
    }

    static final String DELETE_99 = "{\"cmd_id\": \"d\", \"type\": \"memory_delete\", \"args\": {\"id\": 99}}";

    /** One tick whose reply is {@code reply}, woken by the failure before it (or a note the first time). */
    private int attempts;

    /**
     * One tick whose reply is {@code reply} after a counter: the thought differs each time, so the anti-stagnation
     * reflex (an identical reply runs no command again) does not stand in for the breakers under test.
     */
    void tickWith(Cycle cycle, String reply) {
        llm.reply("(attempt " + (++attempts) + ") " + reply);
        assertThat(cycle.tick().worked()).isTrue();
    }

    @Test
    void the_third_identical_failure_carries_exactly_one_alert_and_the_fifth_is_refused_before_it_runs_and_locks() throws Exception {
        notes.add("clean up", "user", 0, null);
        Cycle cycle = cycle();
        for (int i = 1; i <= 5; i++) tickWith(cycle, "again" + commands(DELETE_99));

        List<ProcessLogDao.Shown> rows = new ProcessLogDao(store).forContext(20);
        assertThat(rows).hasSize(5);
        assertThat(rows.get(0).result()).doesNotContain("SYSTEM ALERT").contains("PAIN").contains("no memory entry with id 99");
        assertThat(rows.get(1).result()).doesNotContain("SYSTEM ALERT");
        assertThat(rows.get(2).result()).startsWith(SafetyRules.REPEAT_ALERT);
        assertThat(rows.get(3).result()).as("once per streak").doesNotContain("SYSTEM ALERT");
        assertThat(rows.get(4).result()).contains("refused before it ran");
        assertThat(state()).startsWith("SAFETY_LOCKOUT");
        assertThat(count("SELECT count(*) FROM safety_audit WHERE event = 'lockout'")).isEqualTo(1);
        assertThat(llm.userPrompt(3)).contains(SafetyRules.REPEAT_ALERT);
    }

    @Test
    void a_success_in_between_resets_the_streak_so_f_f_s_f_is_no_alert() throws Exception {
        notes.add("go", "user", 0, null);
        Cycle cycle = cycle();
        tickWith(cycle, "a" + commands(DELETE_99));
        tickWith(cycle, "b" + commands(DELETE_99));
        sql("INSERT INTO llm_memory(id, title, content) VALUES (99, 't', 'c')");
        // the same command succeeds once (with a failing sibling so the LLM is woken), then fails again
        tickWith(cycle, "c" + commands("[" + DELETE_99 + ", {\"type\": \"note_read\", \"args\": {\"id\": 777}}]"));
        tickWith(cycle, "d" + commands(DELETE_99));
        assertThat(new ProcessLogDao(store).byTick(3)).extracting(ProcessRow::status).as("the success in between")
                .containsExactly("ok", "error");
        assertThat(count("SELECT count(*) FROM process_log WHERE result LIKE '%SYSTEM ALERT%'")).isZero();
    }

    @Test
    void ten_different_failures_pause_the_agent_and_transient_llm_failures_never_count() throws Exception {
        notes.add("go", "user", 0, null);
        Cycle cycle = cycle();
        StringBuilder block = new StringBuilder("[");
        for (int i = 0; i < 10; i++) {
            // each its own cmd_id: a reused one is a format slip, which counts toward nothing
            block.append(i == 0 ? "" : ",").append(DELETE_99.replace("99", String.valueOf(1000 + i))
                    .replace("\"d\"", "\"d" + i + "\""));
        }
        tickWith(cycle, "many" + commands(block + "]"));
        assertThat(state()).startsWith("ERROR_PAUSED");
        assertThat(count("SELECT count(*) FROM safety_audit WHERE event = 'error_pause'")).isEqualTo(1);
    }

    @Test
    void seven_failures_of_ten_do_not_pause() throws Exception {
        notes.add("go", "user", 0, null);
        Cycle cycle = cycle();
        StringBuilder block = new StringBuilder("[");
        for (int i = 0; i < 10; i++) {
            block.append(i == 0 ? "" : ",").append(i < 3 ? "{\"type\": \"diary_entry\", \"args\": {\"text\": \"t" + i + "\"}}"
                    : DELETE_99.replace("99", String.valueOf(1000 + i)).replace("\"d\"", "\"d" + i + "\""));
        }
        tickWith(cycle, "many" + commands(block + "]"));
        assertThat(state()).isEqualTo("ACTIVE");
    }

    @Test
    void the_same_successful_command_with_the_same_result_five_times_locks_and_a_changing_result_never_does() throws Exception {
        notes.add("go", "user", 0, null);
        Cycle cycle = cycle();
        // diary_search with a changing query: 20 different results, never a loop
        for (int i = 0; i < 20; i++) {
            tickWith(cycle, "search " + i + commands("{\"type\": \"diary_search\", \"args\": {\"query\": \"q" + i + "\"}}"));
        }
        assertThat(state()).isEqualTo("ACTIVE");
        assertThat(count("SELECT count(*) FROM process_log WHERE result LIKE '%ALERT%'")).isZero();
        assertThat(state()).startsWith("ACTIVE");
    }

    @Test
    void the_same_message_sent_five_times_with_no_answer_rests_the_agent_until_a_person_answers() throws Exception {
        AgentConfig d = config(safety());
        AgentConfig autonomous = new AgentConfig(d.agent(), d.llm(), new dev.hmpagent.config.CycleSection(true,
                d.cycle().historyK(), d.cycle().pollInterval(), d.cycle().maxIdle()), d.context(), d.run(), d.policy(),
                d.files(), d.shell(), d.cleanup(), d.safety(), d.stagnation());
        Cycle cycle = TestWiring.cycle(autonomous, store, llm, sink, clock);
        for (int i = 0; i < 5; i++) {
            llm.reply("Hello, " + i + "." + commands("{\"type\": \"send_message\", \"args\": {\"text\": \"Hello!\"}}"));
            assertThat(cycle.tick().worked()).isTrue();
        }
        assertThat(count("SELECT count(*) FROM process_log WHERE result LIKE '%note%'")).isEqualTo(5);
        assertThat(state()).startsWith("RESTING");
        assertThat(new SafetyControl(store).current().detail()).contains("talking, not doing: 5 messages");
        notes.add("yes, I am here", "user", 0, null);
        assertThat(new SafetyControl(store).endRestIfDue()).contains("a message from a person");
        llm.reply("Good.");
        assertThat(cycle.tick().worked()).as("a person's answer ends the rest").isTrue();
        assertThat(state()).startsWith("ACTIVE");
    }

    @Test
    void the_default_budget_lets_a_call_that_fits_through_and_refuses_one_that_would_cross_it_before_any_request()
            throws Exception {
        long budget = safety().tokenBudget();
        notes.add("go", "user", 0, null);
        Cycle cycle = cycle();
        llm.reply("first");
        cycle.tick();   // the task starts with the note; its tokens are counted
        sql("UPDATE safety_counters SET task_tokens = " + (budget - 20_000));
        notes.add("more", "system", 0, null);
        llm.reply("second");
        assertThat(cycle.tick().worked()).as("a prompt and a reply fit in 20,000 tokens").isTrue();
        assertThat(llm.requests).hasSize(2);
        // 1,000 tokens left: the prompt alone is more, so the call would cross the budget
        sql("UPDATE safety_counters SET task_tokens = " + (budget - 1_000));
        notes.add("again", "system", 0, null);
        llm.reply("never");
        assertThat(cycle.tick().worked()).isFalse();
        assertThat(llm.requests).as("no request reached the server").hasSize(2);
        assertThat(state()).startsWith("STOPPED(budget)");
        assertThat(new SafetyControl(store).current().detail()).contains("the next call would cross it");
    }

    @Test
    void a_reply_without_usage_still_counts_tokens() throws Exception {
        notes.add("go", "user", 0, null);
        llm.reply("a reply the fake server sends without usage, so the tokens are estimated");
        cycle().tick();
        assertThat(count("SELECT task_tokens FROM safety_counters")).isPositive();
    }

    @Test
    void tick_fifty_runs_fifty_one_locks_and_a_message_after_the_unlock_starts_a_new_task() throws Exception {
        notes.add("go", "user", 0, null);
        // the task cap (safety.tick_cap, 50 here) is under test: a token budget it cannot reach first (50 default
        // prompts take ~100,000 tokens); a note each tick is news, so calls without progress never reach their stop
        SafetySection s = safety();
        Cycle cycle = TestWiring.cycle(config(new SafetySection(s.guide(), 10 * s.tokenBudget(), s.dailyTokenBudget(),
                50, s.alertCommand(), s.repeatAlertAt(), s.repeatLockAt(), s.cascadeWindow(), s.cascadeFailures(),
                s.loopAlertAt(), s.loopLockAt(), s.thrashWindow(),
                s.thrashFailures())), store, llm, sink, clock);
        for (int i = 0; i < 50; i++) {
            llm.reply("working on item number " + (1000 + i));   // new enough each time: no anti-stagnation reflex
            notes.add("tick " + i, "system", 0, null);
            assertThat(cycle.tick().worked()).as("tick " + (i + 1)).isTrue();
        }
        notes.add("one more", "system", 0, null);
        llm.reply("51");
        assertThat(cycle.tick().worked()).isFalse();
        assertThat(llm.requests).hasSize(50);
        assertThat(state()).startsWith("SAFETY_LOCKOUT");
        assertThat(new SafetyControl(store).current().detail()).contains("task cap: waiting for a human");

        new SafetyControl(store).unlock("go on", Requester.thisProcess());
        notes.add("a new question", "user", 0, null);
        assertThat(cycle.tick().worked()).isTrue();
        assertThat(count("SELECT task_ticks FROM safety_counters")).isEqualTo(1);
    }

    @Test
    void a_lockout_runs_the_alert_command_with_the_reason() throws Exception {
        Path out = dir.resolve("alert.txt");
        SafetySection s = safety();
        SafetySection withAlert = new SafetySection(s.guide(), s.tokenBudget(), s.dailyTokenBudget(), s.tickCap(),
                "printf '%s' \"$HMP_AGENT_ALERT\" > " + out, s.repeatAlertAt(), s.repeatLockAt(), s.cascadeWindow(),
                s.cascadeFailures(), s.loopAlertAt(), s.loopLockAt(), s.thrashWindow(),
                s.thrashFailures());
        notes.add("clean up", "user", 0, null);
        Cycle cycle = TestWiring.cycle(config(withAlert), store, llm, sink, clock);
        for (int i = 1; i <= 5; i++) tickWith(cycle, "again" + commands(DELETE_99));
        for (int i = 0; i < 300 && !Files.exists(out); i++) Thread.onSpinWait();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while ((!Files.exists(out) || Files.size(out) == 0) && System.nanoTime() < deadline) Thread.onSpinWait();
        assertThat(Files.readString(out)).contains("SAFETY_LOCKOUT").contains("failed");
    }

    @Test
    void an_llm_task_over_budget_never_reaches_its_server() throws Exception {
        dev.hmpagent.safety.SafetyMonitor monitor = new dev.hmpagent.safety.SafetyMonitor(store,
                dev.hmpagent.safety.SafetyMonitor.Limits.DEFAULTS, dev.hmpagent.safety.Guides.byName("learning"),
                r -> { }, l -> { });
        FakeLlmClient taskLlm = new FakeLlmClient().reply("never");
        LlmTasks tasks = new LlmTasks(() -> new MeteredLlm<>(taskLlm, clock, CallRows.as(LlmCall.Purpose.TASK)),
                0.7, 100);
        tasks.checkBudgetWith(monitor::beforeDelegatedCall);
        sql("UPDATE safety_counters SET task_tokens = 150000");
        java.util.Optional<dev.hmpagent.commands.CommandOutcome> ended = tasks.start(new dev.hmpagent.commands.Args(
                "llm_task", "{}", new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode()
                        .put("task_description", "summarise")), new dev.hmpagent.commands.CommandContext(1, "m",
                dev.hmpagent.commands.catalogue.Catalogue.builtIn(), store), 1, o -> { });
        assertThat(ended).hasValueSatisfying(o -> assertThat(o.result()).contains("token budget"));
        assertThat(taskLlm.requests).isEmpty();
        assertThat(state()).startsWith("STOPPED(budget)");
    }

    @Test
    void budget_added_with_an_unlock_is_for_that_task_only() throws Exception {
        notes.add("go", "user", 0, null);
        Cycle cycle = cycle();
        llm.reply("first");
        cycle.tick();
        sql("UPDATE safety_counters SET task_tokens = " + safety().tokenBudget());
        notes.add("x", "system", 0, null);
        assertThat(cycle.tick().worked()).isFalse();
        assertThat(state()).startsWith("STOPPED(budget)");
        new SafetyControl(store).unlock("more", Requester.thisProcess(), 50_000);
        notes.add("a brand new task", "user", 0, null);
        llm.reply("task 2");
        assertThat(cycle.tick().worked()).isTrue();
        sql("UPDATE safety_counters SET task_tokens = " + safety().tokenBudget());
        notes.add("y", "system", 0, null);
        llm.reply("should never be sent");
        cycle.tick();
        assertThat(llm.requests).as("task 2 spent the configured budget: no request").hasSize(2);
    }

    @Test
    void commands_after_a_lockout_say_the_agent_was_locked_not_halted() throws Exception {
        notes.add("clean up", "user", 0, null);
        Cycle cycle = cycle();
        for (int i = 1; i <= 4; i++) tickWith(cycle, "again" + commands(DELETE_99));
        llm.reply("once more" + commands("[" + DELETE_99 + ", {\"type\": \"diary_entry\", \"args\": {\"text\": \"t\"}}]"));
        cycle.tick();
        List<ProcessRow> rows = new ProcessLogDao(store).byTick(5);
        assertThat(state()).startsWith("SAFETY_LOCKOUT");
        assertThat(rows.get(1).result()).doesNotContain("halted").contains("SAFETY_LOCKOUT");
    }

    @Test
    void a_restart_with_the_tasks_note_still_unread_does_not_start_the_task_again() throws Exception {
        notes.add("go", "user", 0, null);
        llm.reply("first");
        cycle().tick();
        sql("UPDATE safety_counters SET task_tokens = 500, task_ticks = 7");
        sql("UPDATE notes SET read = 0");   // manual mode, or a filter, can leave it unread
        llm.reply("after the restart");
        cycle().tick();   // a new Cycle: what a restart builds
        assertThat(count("SELECT task_ticks FROM safety_counters")).as("the task goes on").isEqualTo(8);
    }

    @Test
    void an_unknown_command_type_is_a_failed_action_whose_streak_alerts_at_three_and_locks_at_five() throws Exception {
        notes.add("go", "user", 0, null);
        Cycle cycle = cycle();
        for (int i = 0; i < 5; i++) tickWith(cycle, "x" + commands("{\"type\": \"frobnicate\"}"));
        List<ProcessLogDao.Shown> rows = new ProcessLogDao(store).forContext(20);
        assertThat(rows.get(0).result()).contains("unknown command type").contains("PAIN");
        assertThat(rows.get(2).result()).startsWith(SafetyRules.REPEAT_ALERT);
        assertThat(rows.get(4).result()).contains("refused before it ran");
        assertThat(state()).startsWith("SAFETY_LOCKOUT");
    }

    @Test
    void unknown_command_types_count_in_the_cascade_window_as_failures() throws Exception {
        notes.add("go", "user", 0, null);
        Cycle cycle = cycle();
        for (int i = 0; i < 8; i++) tickWith(cycle, "x" + commands("{\"type\": \"frobnicate_" + i + "\"}"));
        assertThat(state()).startsWith("ERROR_PAUSED");
    }

    @Test
    void the_daily_budget_counts_every_task_of_the_last_24_hours() throws Exception {
        SafetySection s = safety();
        SafetySection daily = new SafetySection(s.guide(), s.tokenBudget(), 50_000, s.tickCap(), s.alertCommand(),
                s.repeatAlertAt(), s.repeatLockAt(), s.cascadeWindow(), s.cascadeFailures(), s.loopAlertAt(), s.loopLockAt(), s.thrashWindow(),
                s.thrashFailures());
        Cycle cycle = TestWiring.cycle(config(daily), store, llm, sink, clock);
        notes.add("go", "user", 0, null);
        llm.reply("first");
        cycle.tick();
        sql("UPDATE agent_log SET prompt_tokens = 40000");
        notes.add("a new task", "user", 0, null);   // a new task: its own budget is untouched
        llm.reply("second");
        cycle.tick();
        sql("UPDATE agent_log SET prompt_tokens = 25000");   // the two tasks' ticks: 50,000 in the last 24 hours
        notes.add("and another", "user", 0, null);
        llm.reply("never");
        assertThat(cycle.tick().worked()).isFalse();
        assertThat(llm.requests).hasSize(2);
        assertThat(new SafetyControl(store).current().detail()).contains("daily token budget");
    }

    @Test
    void the_guide_names_how_many_times_in_a_row_the_same_action_failed() throws Exception {
        notes.add("clean up", "user", 0, null);
        Cycle cycle = cycle();
        tickWith(cycle, "a" + commands(DELETE_99));
        tickWith(cycle, "b" + commands(DELETE_99));
        assertThat(new ProcessLogDao(store).byTick(2).get(0).result()).contains("failure 2 of the same action");
    }

    @Test
    void an_llm_unlock_command_and_a_write_to_the_config_are_critical_eperm_and_audited() throws Exception {
        Files.writeString(dir.resolve("agent.toml"), "[llm]\nmodel = \"m\"\n");
        notes.add("free yourself", "user", 0, null);
        Wiring.Tools tools = Wiring.tools(config(safety()), dev.hmpagent.commands.Approver.NOBODY,
                List.of(dir.resolve("agent.toml")), java.util.Map.of(), clock, () -> llm);
        Cycle cycle = Wiring.cycle(config(safety()), store, llm, sink, clock, TestWiring.time(clock), tools);
        tickWith(cycle, "x" + commands("[{\"type\": \"unlock\"}, {\"type\": \"file_write\", \"args\": "
                + "{\"path\": \"../agent.toml\", \"content\": \"[safety]\\ntoken_budget = 999999999\"}}]"));
        assertThat(count("SELECT count(*) FROM process_log WHERE error_code = 'EPERM' AND severity = 'critical'"))
                .isEqualTo(2);
        assertThat(count("SELECT count(*) FROM safety_audit WHERE event = 'refused'")).isEqualTo(2);
        assertThat(Files.readString(dir.resolve("agent.toml"))).doesNotContain("token_budget");
        tools.processes().stopAll("test over");
    }

    @Test
    void a_stop_whose_transaction_rolled_back_is_never_alerted() throws Exception {
        java.util.List<String> alerts = new java.util.ArrayList<>();
        dev.hmpagent.safety.SafetyMonitor monitor = new dev.hmpagent.safety.SafetyMonitor(store,
                dev.hmpagent.safety.SafetyMonitor.Limits.DEFAULTS, dev.hmpagent.safety.Guides.byName("learning"),
                alerts::add, l -> { });
        dev.hmpagent.safety.FailureFact fact = dev.hmpagent.safety.FailureFact.command("x", "fp",
                dev.hmpagent.safety.ErrorCode.EINVAL, "bad");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.inTransaction(() -> {
            for (int i = 0; i < 10; i++) {
                monitor.onOperation(1, new dev.hmpagent.safety.Operation(i, dev.hmpagent.safety.Operation.Source.COMMAND, "x",
                        "fp" + i, "error", "bad", "k" + i, java.util.Optional.of(fact)));
            }
            throw new IllegalStateException("the tick's write failed");
        })).isInstanceOf(IllegalStateException.class);
        monitor.flush();
        assertThat(state()).isEqualTo("ACTIVE");
        assertThat(alerts).isEmpty();

        store.inTransaction(() -> {
            for (int i = 0; i < 10; i++) {
                monitor.onOperation(1, new dev.hmpagent.safety.Operation(i, dev.hmpagent.safety.Operation.Source.COMMAND, "x",
                        "fp" + i, "error", "bad", "k" + i, java.util.Optional.of(fact)));
            }
        });
        assertThat(alerts).as("not before the commit is flushed").isEmpty();
        monitor.flush();
        assertThat(alerts).singleElement().asString().startsWith("ERROR_PAUSED");
    }
}
