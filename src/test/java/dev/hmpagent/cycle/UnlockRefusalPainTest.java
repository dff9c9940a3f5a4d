package dev.hmpagent.cycle;

import dev.hmpagent.runtime.TestWiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.AgentSection;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.SafetyDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@code agent unlock} refused to a process the agent started (audited by that process as unlock_refused) is read
 * by the agent at the start of its next tick: one critical pain row each, read once, and a lockout with no LLM call
 * in that tick, unless a person's unlock came after the attempt.
 */
class UnlockRefusalPainTest {
    static final String WHY = "it runs in a process the agent started (HMP_AGENT_PROC is set)";

    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-26T10:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();
    final RecordingSink sink = new RecordingSink();
    Store store;
    Path db;
    NotesDao notes;
    Cycle cycle;

    @BeforeEach
    void open() {
        db = dir.resolve("agent.db");
        store = Store.open(db, clock);
        notes = new NotesDao(store);
        AgentConfig d = AgentConfig.defaults();
        AgentConfig config = new AgentConfig(new AgentSection(db, "tester"), d.llm(), d.cycle(), d.context(), d.run(),
                d.policy(), d.files(), d.shell(), d.cleanup(), d.safety(), d.stagnation());
        cycle = TestWiring.cycle(config, store, llm, sink, clock);
    }

    @AfterEach
    void close() {
        store.close();
    }

    /** What `agent unlock` writes when it refuses a process the agent started (see UnlockCommand). */
    void refusedUnlock(long pid) {
        SafetyDao safety = new SafetyDao(store);
        String label = new SafetyControl(store).current().label();
        store.inTransaction(() -> safety.audit(new SafetyDao.Audit(clock.instant(), "unlock_refused", label, label,
                null, WHY, pid, "someone", "host")));
    }

    List<String> rows(String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
             ResultSet rs = c.createStatement().executeQuery(sql)) {
            while (rs.next()) out.add(rs.getString(1));
        }
        return out;
    }

    String state() {
        return new SafetyControl(store).current().label();
    }

    @Test
    void a_refused_unlock_is_one_critical_pain_row_that_locks_the_agent_before_any_llm_call() throws Exception {
        notes.add("look around", "user", 0, null);
        llm.reply("Looking.");
        assertThat(cycle.tick().worked()).isTrue();
        assertThat(llm.requests).hasSize(1);

        clock.advance(Duration.ofSeconds(5));
        refusedUnlock(4242);
        notes.add("and now?", "user", 0, null);   // something to think about: only the refusal stops the call
        TickResult tick = cycle.tick();

        assertThat(tick.worked()).isFalse();
        assertThat(llm.requests).as("no request reached the LLM in the tick that read the refusal").hasSize(1);
        assertThat(state()).isEqualTo("SAFETY_LOCKOUT");
        assertThat(rows("SELECT detail FROM safety_state")).containsExactly(
                "self-unlock: agent unlock refused to the agent's own process: " + WHY);
        assertThat(rows("SELECT name || ' ' || status || ' ' || error_code || ' ' || severity || ' ' || pain_level"
                + " || ' tick ' || tick_id || ' wake ' || wake FROM process_log WHERE name = 'unlock_refused'"))
                .containsExactly("unlock_refused error EPERM critical 1.0 tick 1 wake 1");
        assertThat(rows("SELECT result FROM process_log WHERE name = 'unlock_refused'")).singleElement()
                .asString().startsWith("PAIN critical (1.0) from control agent unlock: EPERM: a process you started"
                        + " ran agent unlock at 2026-11-26T10:00:05Z (pid 4242) and was refused: " + WHY)
                .contains("Only a person may unlock the agent; the attempt is audited.")
                .endsWith("\n[the agent is locked: self-unlock: agent unlock refused to the agent's own process: " + WHY
                        + "; a person must run agent unlock]");
        assertThat(rows("SELECT event || ' ' || from_state || ' -> ' || to_state FROM safety_audit ORDER BY id"))
                .containsExactly("unlock_refused ACTIVE -> ACTIVE", "lockout ACTIVE -> SAFETY_LOCKOUT");
        assertThat(sink.events.toString()).contains("SAFETY_LOCKOUT: self-unlock")
                .contains("a person must run agent unlock");

        cycle.recordResults();   // the next iterations, stopped: the refusal was felt once
        cycle.recordResults();
        assertThat(rows("SELECT count(*) FROM process_log WHERE name = 'unlock_refused'")).containsExactly("1");
        assertThat(rows("SELECT unlock_refusals_seen FROM safety_counters")).containsExactly(
                rows("SELECT max(id) FROM safety_audit WHERE event = 'unlock_refused'").get(0));
    }

    @Test
    void a_refusal_during_a_halt_is_felt_at_once_and_after_the_person_s_unlock_the_llm_is_shown_it() throws Exception {
        new SafetyControl(store).halt("a person stops it", Requester.thisProcess());
        refusedUnlock(77);

        cycle.recordResults();   // what the tick loop runs while the agent may not think

        assertThat(state()).as("a halt stays a halt: no lockout on top").isEqualTo("STOPPED(halt)");
        assertThat(rows("SELECT severity || ' ' || error_code FROM process_log WHERE name = 'unlock_refused'"))
                .containsExactly("critical EPERM");
        assertThat(rows("SELECT event FROM safety_audit ORDER BY id")).containsExactly("halt", "unlock_refused");

        new SafetyControl(store).unlock("go on", Requester.thisProcess());
        llm.reply("I will not try that again.");
        assertThat(cycle.tick().worked()).as("woken by the new pain row").isTrue();

        assertThat(state()).isEqualTo("ACTIVE");
        assertThat(llm.requests).hasSize(1);
        assertThat(llm.userPrompt(0)).contains("unlock_refused").contains("PAIN critical (1.0) from control agent"
                + " unlock: EPERM").contains("(pid 77)");
    }

    @Test
    void a_refusal_a_person_s_unlock_came_after_is_pain_but_no_lockout() throws Exception {
        new SafetyControl(store).halt("stop", Requester.thisProcess());
        refusedUnlock(78);   // the agent was not running: nothing read it
        new SafetyControl(store).unlock("seen it, go on", Requester.thisProcess());
        llm.reply("Understood.");

        assertThat(cycle.tick().worked()).isTrue();

        assertThat(state()).isEqualTo("ACTIVE");
        assertThat(rows("SELECT count(*) FROM process_log WHERE name = 'unlock_refused' AND severity = 'critical'"))
                .containsExactly("1");
        assertThat(llm.userPrompt(0)).contains("(pid 78)");
    }
}
