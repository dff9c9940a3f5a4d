package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.commands.Approver;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.AgentSection;
import dev.hmpagent.config.PolicySection;
import dev.hmpagent.config.SandboxSection;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.Bwrap;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sandbox that worked at start-up and then breaks (here bwrap's own "setting up uid map: Permission denied", as
 * when user namespaces are turned off under a running agent): each command's row says the sandbox failed, not the
 * command; none of it counts against the model (no pain, no alert, no lockout, no pause), and the person is told once.
 */
@Timeout(120)
class SandboxFailsAfterStartTest {
    static final String BWRAP_SAYS = Bwrap.BROKEN;
    static final int COMMANDS = 12;   // past every rule: 5 identical failures lock, 8 of 10 pause, 10 of 20 thrash

    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-29T08:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();
    final RecordingSink sink = new RecordingSink();
    final Semaphore arrived = new Semaphore(0);
    Bwrap.Breakable bwrap;
    Store store;
    Wiring.Tools tools;

    @BeforeEach
    void failingBwrap() throws Exception {
        bwrap = Bwrap.breakable();
    }

    @AfterEach
    void close() throws Exception {
        if (tools != null) tools.processes().stopAll("test over");
        if (store != null) store.close();
        bwrap.close();
    }

    @Test
    void every_command_says_the_sandbox_failed_none_counts_against_the_model_and_the_person_is_told_once()
            throws Exception {
        Cycle cycle = cycle();
        assertThat(tools.confinement().sandboxed()).as("the start-up probe passed").isTrue();
        bwrap.breakIt();
        new NotesDao(store).add("build it", "user", 0, null);
        for (int i = 0; i < COMMANDS; i++) {
            llm.reply("Attempt " + i + ".\n# Commands:\n[{\"cmd_id\": \"s\", \"type\": \"shell\", \"args\":"
                    + " {\"command\": \"echo hi\"}}]");
        }
        llm.reply("I will wait for a person.");

        for (int i = 0; i < COMMANDS; i++) {
            cycle.tick();
            assertThat(arrived.tryAcquire(30, TimeUnit.SECONDS)).as("result of command " + i).isTrue();
        }
        cycle.tick();   // writes the last result

        assertThat(rows("SELECT status || ' ' || error_code || ' ' || pain_level FROM process_log WHERE name = 'shell'"))
                .hasSize(COMMANDS).containsOnly("error ESANDBOX 0.0");
        assertThat(rows("SELECT result FROM process_log WHERE name = 'shell'")).allSatisfy(r -> assertThat(r)
                .startsWith("not run: the sandbox failed before the command ran (" + BWRAP_SAYS + ")")
                .contains("not counted against you").doesNotContain("SYSTEM ALERT").doesNotContain("PAIN")
                .doesNotContain("[the agent is"));
        assertThat(rows("SELECT state FROM safety_state")).containsExactly("ACTIVE");
        assertThat(rows("SELECT COUNT(*) FROM safety_audit")).containsExactly("0");
        assertThat(sink.of(AgentEvent.Problem.class)).map(AgentEvent.Problem::text)
                .singleElement().asString()
                .startsWith("the sandbox failed before the command ran (" + BWRAP_SAYS + "): shell and script_run fail"
                        + " as ESANDBOX").contains("agent check");
    }

    @Test
    void a_bwrap_gone_after_start_up_is_the_sandbox_s_failure_too() throws Exception {
        Cycle cycle = cycle();
        java.nio.file.Files.delete(bwrap.bin().resolve("bwrap"));
        new NotesDao(store).add("build it", "user", 0, null);
        llm.reply("Trying.\n# Commands:\n[{\"cmd_id\": \"s\", \"type\": \"shell\", \"args\": {\"command\":"
                + " \"echo hi\"}}]").reply("It failed.");

        cycle.tick();
        arrived.tryAcquire(30, TimeUnit.SECONDS);   // as root the drop to nobody starts, and fails to exec bwrap
        cycle.tick();

        assertThat(rows("SELECT status || ' ' || error_code || ' ' || pain_level || ' ' || result FROM process_log"
                + " WHERE name = 'shell'")).singleElement().asString().startsWith("error ESANDBOX 0.0 not run: the"
                + " sandbox").contains("bwrap");
        assertThat(sink.of(AgentEvent.Problem.class)).hasSize(1);
    }

    @Test
    void a_command_that_only_prints_what_bwrap_would_say_is_its_own_failure() throws Exception {
        Cycle cycle = cycle();
        new NotesDao(store).add("build it", "user", 0, null);
        llm.reply("Trying.\n# Commands:\n[{\"cmd_id\": \"s\", \"type\": \"shell\", \"args\": {\"command\":"
                + " \"echo '" + BWRAP_SAYS + "' >&2; exit 1\"}}]").reply("It failed.");

        cycle.tick();
        assertThat(arrived.tryAcquire(30, TimeUnit.SECONDS)).isTrue();
        cycle.tick();

        assertThat(rows("SELECT status || ' ' || error_code FROM process_log WHERE name = 'shell'"))
                .containsExactly("error EEXIT(1)");
        assertThat(sink.of(AgentEvent.Problem.class)).isEmpty();
    }

    Cycle cycle() {
        Path db = dir.resolve("agent.db");
        store = Store.open(db, clock);
        AgentConfig d = AgentConfig.defaults();
        AgentConfig config = new AgentConfig(new AgentSection(db, "tester"), d.llm(), d.cycle(), d.context(), d.run(),
                new PolicySection(d.policy().shellDeny(), d.policy().shellAsk(), List.of("echo", "exit")), d.files(),
                d.shell(), d.cleanup()).withSandbox(new SandboxSection(SandboxSection.Mode.AUTO, false, 1 << 20, 64));
        tools = Wiring.tools(config, Approver.NOBODY, List.of(), Map.of("PATH", bwrap.path(), "HOME",
                dir.toString()), clock, FakeLlmClient::new);
        tools.completions().onArrival(arrived::release);
        return Wiring.cycle(config, store, llm, sink, clock, TestWiring.time(clock), tools);
    }

    List<String> rows(String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("agent.db"));
             ResultSet rs = c.createStatement().executeQuery(sql)) {
            while (rs.next()) out.add(rs.getString(1));
        }
        return out;
    }
}
