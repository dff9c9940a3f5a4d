package dev.hmpagent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.commands.Approver;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.AgentSection;
import dev.hmpagent.config.PolicySection;
import dev.hmpagent.config.ShellSection;
import dev.hmpagent.cycle.Cycle;
import dev.hmpagent.llm.CallCancel;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.llm.Usage;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A halt stops everything the composition root registered on the agent's one stop signal, at once, on the thread
 * that heard it (issue 36: the watcher's own kill could be removed with every unit test still green): a process tree
 * and a delegated LLM call in flight are gone by the time {@code halt()} returns, and their rows say the halt ended
 * them.
 */
class HaltStopsAllTest {
    static final String SLEEP = "sleep 60.37";

    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();
    final HeldLlm taskLlm = new HeldLlm();
    final RecordingSink sink = new RecordingSink();
    final Semaphore arrived = new Semaphore(0);
    Store store;
    Path db;
    Wiring.Tools tools;
    Cycle cycle;

    /** A delegated call that is held until its call's cancel comes. */
    static final class HeldLlm implements LlmClient {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch cancelled = new CountDownLatch(1);

        @Override
        public Completion complete(LlmRequest request, StreamListener listener, CallCancel cancel) {
            Runnable off = cancel.onCancel(cancelled::countDown);
            try {
                entered.countDown();
                cancelled.await(60, TimeUnit.SECONDS);
                return new Completion("partial", new Usage(3, 1, false), model(), "", true);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Completion("", new Usage(0, 0, true), model(), "", true);
            } finally {
                off.run();
            }
        }

        @Override
        public String endpoint() { return "http://held/v1"; }

        @Override
        public String model() { return "held-model"; }
    }

    @BeforeEach
    void open() {
        db = dir.resolve("agent.db");
        store = Store.open(db, clock);
        AgentConfig d = AgentConfig.defaults();
        PolicySection policy = new PolicySection(d.policy().shellDeny(), d.policy().shellAsk(), List.of("sleep"));
        AgentConfig config = new AgentConfig(new AgentSection(db, "tester"), d.llm(), d.cycle(), d.context(), d.run(),
                policy, d.files(), new ShellSection(Duration.ofSeconds(120), Duration.ofSeconds(120), 2, 4096),
                d.cleanup());
        tools = Wiring.tools(config, Approver.NOBODY, List.of(), Map.of("PATH", System.getenv("PATH")), clock,
                () -> taskLlm);
        tools.completions().onArrival(arrived::release);
        cycle = Wiring.cycle(config, store, llm, sink, clock, TestWiring.time(clock), tools);
    }

    @AfterEach
    void close() {
        tools.processes().stopAll("test over");
        taskLlm.cancelled.countDown();
        store.close();
    }

    long count(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); ResultSet rs = c.createStatement()
                .executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    @Test
    void a_halt_kills_the_process_tree_and_cancels_the_delegated_call_before_it_returns() throws Exception {
        new NotesDao(store).add("start the long jobs", "user", 0, null);
        llm.reply("Starting both.\n# Commands:\n```json\n[{\"cmd_id\": \"s\", \"type\": \"shell\", \"args\": {\"command\":"
                + " \"" + SLEEP + "\", \"timeout_s\": 120}}, {\"cmd_id\": \"t\", \"type\": \"llm_task\", \"args\":"
                + " {\"task_description\": \"take your time\"}}]\n```\n# End commands\n");
        assertThat(cycle.tick().outcome()).isEqualTo("thought");
        assertThat(taskLlm.entered.await(30, TimeUnit.SECONDS)).as("the delegated call is in flight").isTrue();
        assertThat(tools.processes().running()).as("the process runs").hasSize(1);
        long pid = tools.processes().running().get(0).pid();

        cycle.stops().halt();

        assertThat(tools.processes().running()).as("no tree left when halt() returned").isEmpty();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        assertThat(taskLlm.cancelled.getCount()).as("the delegated call was cancelled by then").isZero();
        assertThat(arrived.tryAcquire(2, 30, TimeUnit.SECONDS)).as("both results handed in").isTrue();
        cycle.recordResults();
        assertThat(count("SELECT count(*) FROM process_log WHERE cmd_id IN ('s', 't') AND status = 'error'"
                + " AND error_code = 'EHALT'")).as("both rows end EHALT").isEqualTo(2);
    }
}
