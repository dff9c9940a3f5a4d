package dev.hmpagent.cycle;

import dev.hmpagent.runtime.TestWiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.commands.Approver;
import dev.hmpagent.commands.CommandGate;
import dev.hmpagent.commands.PendingCommand;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessRow;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commands run after the tick's transaction, one by one, each asking the gate first. */
class CommandExecutionTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-21T10:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();
    final RecordingSink sink = new RecordingSink();
    Store store;
    Path db;

    @BeforeEach
    void open() {
        db = dir.resolve("agent.db");
        store = Store.open(db, clock);
    }

    @AfterEach
    void close() {
        store.close();
    }

    static String commands(String json) {
        return "\n# Commands:\n```json\n" + json + "\n```\n# End commands\n";
    }

    static final String TWO_DIARY_ENTRIES = "Two entries." + commands("""
            [{"cmd_id": "c-1", "type": "diary_entry", "args": {"text": "first"}},
             {"cmd_id": "c-2", "type": "diary_entry", "args": {"text": "second"}}]""");

    long count(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    /** A gate that holds the first command it is asked about until released. */
    static final class HeldGate implements CommandGate {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public Decision check(PendingCommand command) {
            if (entered.getCount() > 0) {
                entered.countDown();
                try {
                    if (!release.await(30, TimeUnit.SECONDS)) throw new AssertionError("never released");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return Decision.allow();
        }
    }

    @Test
    void the_tick_transaction_is_all_or_nothing_a_write_failing_after_the_command_rows_leaves_no_row_of_the_tick()
            throws Exception {
        new NotesDao(store).add("write two entries", "user", 0, null);
        llm.reply(TWO_DIARY_ENTRIES);
        // the agent_log row is the last write of the tick's transaction, after the command rows
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            st.execute("CREATE TRIGGER fail_tick BEFORE INSERT ON agent_log BEGIN SELECT RAISE(ABORT, 'disk says no'); END");
        }
        Cycle cycle = TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock);

        cycle.tick();

        assertThat(llm.requests).hasSize(1);
        assertThat(count("SELECT count(*) FROM process_log")).as("no command row of the failed tick").isZero();
        assertThat(count("SELECT count(*) FROM llm_recent_responses")).isZero();
        assertThat(count("SELECT count(*) FROM tick_prompts")).isZero();
        assertThat(count("SELECT count(*) FROM diary_entries")).as("and no command ran").isZero();
        assertThat(count("SELECT count(*) FROM notes WHERE read = 0")).as("the note is still unanswered").isEqualTo(1);
    }

    @Test
    void a_command_held_outside_the_transaction_does_not_block_another_process_writing_a_note() throws Exception {
        new NotesDao(store).add("write two entries", "user", 0, null);
        llm.reply(TWO_DIARY_ENTRIES);
        HeldGate gate = new HeldGate();
        Cycle cycle = TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock, gate, Approver.NOBODY);
        CompletableFuture<TickResult> tick = CompletableFuture.supplyAsync(cycle::tick);
        assertThat(gate.entered.await(30, TimeUnit.SECONDS)).isTrue();

        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = other.createStatement()) {
            st.execute("PRAGMA busy_timeout = 0");
            st.execute("INSERT INTO notes(text, source) VALUES ('from agent note', 'cli')");
        }
        gate.release.countDown();

        assertThat(tick.get(30, TimeUnit.SECONDS).outcome()).isEqualTo("thought");
        assertThat(count("SELECT count(*) FROM notes WHERE text = 'from agent note'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM diary_entries")).isEqualTo(2);
        assertThat(count("SELECT commands_run FROM agent_log WHERE tick_id = 1")).isEqualTo(2);
    }

    @Test
    void a_halt_between_two_commands_ends_the_rest_as_EHALT_and_they_never_run_not_after_unlock_not_after_restart()
            throws Exception {
        new NotesDao(store).add("write two entries", "user", 0, null);
        llm.reply(TWO_DIARY_ENTRIES);
        HeldGate gate = new HeldGate();
        Cycle cycle = TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock, gate, Approver.NOBODY);
        CompletableFuture<TickResult> tick = CompletableFuture.supplyAsync(cycle::tick);
        assertThat(gate.entered.await(30, TimeUnit.SECONDS)).isTrue();

        // a person halts from another process while command 1 waits at the gate
        try (Store other = store.connectAgain()) {
            new SafetyControl(other).halt("stop now", Requester.thisProcess());
        }
        gate.release.countDown();
        tick.get(30, TimeUnit.SECONDS);

        List<ProcessRow> rows = new ProcessLogDao(store).byTick(1);
        assertThat(rows).extracting(ProcessRow::cmdId, ProcessRow::status)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("c-1", "error"),
                        org.assertj.core.groups.Tuple.tuple("c-2", "error"));
        assertThat(count("SELECT count(*) FROM process_log WHERE error_code = 'EHALT'")).isEqualTo(2);
        assertThat(rows.get(1).result()).contains("halted").contains("will not run later");
        assertThat(count("SELECT count(*) FROM diary_entries")).isZero();

        try (Store other = store.connectAgain()) {
            new SafetyControl(other).unlock("go on", Requester.thisProcess());
        }
        llm.reply("nothing");
        for (int i = 0; i < 3; i++) cycle.tick();
        Store restarted = store.connectAgain();
        try {
            new ProcessLogDao(restarted).markOrphansOffline();
            Cycle again = TestWiring.cycle(AgentConfig.defaults(), restarted, llm, sink, clock);
            for (int i = 0; i < 3; i++) again.tick();
        } finally {
            restarted.close();
        }
        assertThat(count("SELECT count(*) FROM diary_entries")).as("neither command ever ran").isZero();
        assertThat(count("SELECT count(*) FROM process_log WHERE status IN ('pending', 'running')")).isZero();
        assertThat(llm.requests).as("EHALT rows do not wake the LLM by themselves").hasSize(1);
    }

    @Test
    void this_processes_halt_stops_the_executor_too_and_the_held_command_does_not_run() throws Exception {
        new NotesDao(store).add("write two entries", "user", 0, null);
        llm.reply(TWO_DIARY_ENTRIES);
        HeldGate gate = new HeldGate();
        Cycle cycle = TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock, gate, Approver.NOBODY);
        CompletableFuture<TickResult> tick = CompletableFuture.supplyAsync(cycle::tick);
        assertThat(gate.entered.await(30, TimeUnit.SECONDS)).isTrue();
        cycle.stops().halt();
        gate.release.countDown();
        tick.get(30, TimeUnit.SECONDS);
        assertThat(count("SELECT count(*) FROM process_log WHERE error_code = 'EHALT'")).isEqualTo(2);
        assertThat(count("SELECT count(*) FROM diary_entries")).isZero();
    }

    @Test
    void rows_a_dead_process_left_pending_or_running_become_offline_at_start_and_wake_the_llm_once() throws Exception {
        ProcessLogDao processLog = new ProcessLogDao(store);
        processLog.enqueue(1, "diary_entry", "c-1", "{\"type\": \"diary_entry\", \"args\": {\"text\": \"x\"}}", "f1");
        processLog.startRunning(processLog.enqueue(1, "shell", "c-2", "{\"type\": \"shell\"}", "f2"));

        assertThat(processLog.markOrphansOffline()).isEqualTo(2);

        List<ProcessRow> rows = processLog.byTick(1);
        assertThat(rows).extracting(ProcessRow::status).containsExactly("offline", "offline");
        assertThat(rows.get(0).result()).contains("not run").contains("will not run again");
        assertThat(rows.get(1).result()).contains("ended while this was running");
        llm.reply("I see two commands were lost.");
        Cycle cycle = TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock);
        assertThat(cycle.tick().worked()).isTrue();
        assertThat(llm.userPrompt(0)).contains("cmd c-1, diary_entry").contains("offline");
        assertThat(cycle.tick().worked()).isFalse();
        assertThat(count("SELECT count(*) FROM diary_entries")).isZero();
    }

    @Test
    void a_denied_command_is_an_EPERM_failure_the_llm_sees_and_its_sibling_still_runs() throws Exception {
        new NotesDao(store).add("write two entries", "user", 0, null);
        llm.reply(TWO_DIARY_ENTRIES).reply("I was refused.");
        CommandGate denyFirst = c -> c.cmdId().equals("c-1") ? CommandGate.Decision.deny("no diary before noon")
                : CommandGate.Decision.allow();
        Cycle cycle = TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock, denyFirst, Approver.NOBODY);
        cycle.tick();
        assertThat(count("SELECT count(*) FROM process_log WHERE cmd_id = 'c-1' AND status = 'error' "
                + "AND error_code = 'EPERM' AND severity = 'critical' AND pain_level = 1.0")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM diary_entries WHERE text = 'second'")).isEqualTo(1);
        assertThat(cycle.tick().worked()).as("the refusal wakes the LLM").isTrue();
        assertThat(llm.userPrompt(1)).contains("diary_entry refused: no diary before noon");
    }

    @Test
    void an_ask_verdict_with_nobody_to_answer_is_denied_and_a_yes_runs_it() throws Exception {
        new NotesDao(store).add("write two entries", "user", 0, null);
        llm.reply(TWO_DIARY_ENTRIES);
        CommandGate ask = c -> CommandGate.Decision.ask("diary entries need approval");
        Approver yesToSecond = new Approver() {
            @Override
            public Answer ask(PendingCommand command, String question, BooleanSupplier cancelled) {
                return command.cmdId().equals("c-2") ? Answer.YES : Answer.NO;
            }

            @Override
            public boolean personPresent() {
                return true;
            }
        };
        TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock, ask, yesToSecond).tick();
        assertThat(count("SELECT result FROM process_log WHERE cmd_id = 'c-1'")).isZero();
        assertThat(new ProcessLogDao(store).byTick(1).get(0).result()).contains("the person at the terminal said no");
        assertThat(count("SELECT count(*) FROM diary_entries WHERE text = 'second'")).isEqualTo(1);

        new NotesDao(store).add("again", "user", 0, null);
        llm.reply(TWO_DIARY_ENTRIES);
        TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock, ask, Approver.NOBODY).tick();
        assertThat(new ProcessLogDao(store).byTick(2)).allSatisfy(r -> assertThat(r.result())
                .contains("nobody is at a terminal to approve it (diary entries need approval)"));
    }
    @Test
    void ten_thousand_commands_in_one_reply_run_the_first_hundred_and_the_rest_become_one_error_row() throws Exception {
        new NotesDao(store).add("write many entries", "user", 0, null);
        StringBuilder many = new StringBuilder("[");
        for (int i = 1; i <= 10_000; i++) {
            many.append(i == 1 ? "" : ",").append("{\"cmd_id\": \"c-").append(i)
                    .append("\", \"type\": \"diary_entry\", \"args\": {\"text\": \"entry ").append(i).append("\"}}");
        }
        llm.reply("Ten thousand entries." + commands(many.append("]").toString()));
        Cycle cycle = TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock);

        cycle.tick();

        assertThat(count("SELECT count(*) FROM diary_entries")).as("the default cap, 100").isEqualTo(100);
        assertThat(count("SELECT count(*) FROM diary_entries WHERE text = 'entry 100'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM diary_entries WHERE text = 'entry 101'")).isZero();
        assertThat(count("SELECT count(*) FROM process_log")).as("100 commands and one error row").isEqualTo(101);
        assertThat(count("SELECT count(*) FROM process_log WHERE name = 'command_parse' AND status = 'error'"))
                .isEqualTo(1);
        ProcessRow dropped = new ProcessLogDao(store).byTick(1).stream()
                .filter(r -> r.name().equals("command_parse")).findFirst().orElseThrow();
        assertThat(dropped.result()).contains("9900").contains("100").contains("cycle.max_commands_per_reply");
        assertThat(count("SELECT count(*) FROM process_log WHERE name = 'command_parse' AND pain_level > 0")).isEqualTo(1);
    }
}
