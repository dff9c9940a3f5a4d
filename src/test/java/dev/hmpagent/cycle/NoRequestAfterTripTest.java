package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.commands.Approver;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.AgentSection;
import dev.hmpagent.config.PolicySection;
import dev.hmpagent.config.ShellSection;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A breaker tripped by the result of an asynchronous command (a shell process) stops the agent before the request
 * of the tick that recorded it is built: no request reaches the LLM after the audit row.
 */
class NoRequestAfterTripTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-27T09:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();
    final RecordingSink sink = new RecordingSink();
    final Semaphore arrived = new Semaphore(0);
    Store store;
    Path db;
    Wiring.Tools tools;
    AgentConfig config;
    Cycle cycle;

    @BeforeEach
    void open() {
        db = dir.resolve("agent.db");
        store = Store.open(db, clock);
        AgentConfig d = AgentConfig.defaults();
        PolicySection policy = new PolicySection(d.policy().shellDeny(), d.policy().shellAsk(), List.of("ls"));
        config = new AgentConfig(new AgentSection(db, "tester"), d.llm(), d.cycle(), d.context(), d.run(),
                policy, d.files(), new ShellSection(Duration.ofSeconds(5), Duration.ofSeconds(10), 8, 4096),
                d.cleanup());
        tools = Wiring.tools(config, Approver.NOBODY, List.of(), Map.of("PATH", System.getenv("PATH")), clock,
                () -> new FakeLlmClient());
        tools.completions().onArrival(arrived::release);
        cycle = Wiring.cycle(config, store, llm, sink, clock, TestWiring.time(clock), tools);
    }

    @AfterEach
    void close() {
        tools.processes().stopAll("test over");
        store.close();
    }

    long count(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
             ResultSet rs = c.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    static String shells(String command, int times) {
        StringBuilder json = new StringBuilder("[");
        for (int i = 1; i <= times; i++) {
            if (i > 1) json.append(", ");
            json.append("{\"cmd_id\": \"s").append(i).append("\", \"type\": \"shell\", \"args\": {\"command\": \"")
                    .append(command).append("\"}}");
        }
        return "\n# Commands:\n```json\n" + json + "]\n```\n# End commands\n";
    }

    @Test
    void the_fifth_identical_shell_failure_locks_and_no_request_follows_the_audit_row() throws Exception {
        new NotesDao(store).add("look around", "user", 0, null);
        // the same failing command five times in flight: the gate lets each start (none has failed yet), and the
        // fifth result, recorded at the start of the next tick, trips the repeat breaker
        llm.reply("Looking." + shells("ls /no/such/dir", 5)).reply("this request must never be made");

        assertThat(cycle.tick().worked()).isTrue();
        assertThat(arrived.tryAcquire(5, 30, TimeUnit.SECONDS)).as("the five processes ended").isTrue();
        int before = llm.requests.size();

        TickResult after = cycle.tick();

        assertThat(new SafetyControl(store).current().label()).startsWith("SAFETY_LOCKOUT");
        assertThat(count("SELECT count(*) FROM safety_audit WHERE event = 'lockout'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM process_log WHERE status = 'error'")).isEqualTo(5);
        assertThat(llm.requests).as("no request after the lockout was recorded").hasSize(before);
        assertThat(after.worked()).isFalse();
        assertThat(count("SELECT count(*) FROM agent_log")).as("no tick was written for a request never made")
                .isEqualTo(1);
    }

    @Test
    void a_halt_another_process_commits_after_the_state_was_read_keeps_the_built_request_from_being_sent() {
        Store other = store.connectAgain();
        java.util.concurrent.atomic.AtomicBoolean armed = new java.util.concurrent.atomic.AtomicBoolean();
        // the prompt names the LLM thinking now (context 5): while it is assembled, after the state was read for this
        // tick, another process's `agent halt` commits, and the control watcher has not heard of it yet
        LlmClient describedWhileAssembling = new LlmClient() {
            @Override
            public dev.hmpagent.llm.Completion complete(dev.hmpagent.llm.LlmRequest r, dev.hmpagent.llm.StreamListener l, dev.hmpagent.llm.CallCancel cancel) {
                return llm.complete(r, l, cancel);
            }

            @Override
            public String endpoint() {
                if (armed.getAndSet(false)) {
                    new SafetyControl(other).halt("stop now", new dev.hmpagent.store.Requester(7, "ann", "box"));
                }
                return llm.endpoint();
            }

            @Override
            public String model() { return llm.model(); }
        };
        Cycle thinking = Wiring.cycle(config, store, describedWhileAssembling, sink, clock, TestWiring.time(clock), tools);
        new NotesDao(store).add("hello", "user", 0, null);
        llm.reply("never asked for");
        armed.set(true);

        TickResult r = thinking.tick();

        assertThat(armed).as("the halt came while the prompt was assembled").isFalse();
        assertThat(new SafetyControl(store).current().label()).startsWith("STOPPED");
        assertThat(llm.requests).as("the state read right before sending stops the request").isEmpty();
        assertThat(r.outcome()).isEqualTo("interrupted");
        other.close();
    }
}
