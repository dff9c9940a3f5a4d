package dev.hmpagent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.a2a.ChildAgents;
import dev.hmpagent.commands.Approver;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.AgentSection;
import dev.hmpagent.cycle.Cycle;
import dev.hmpagent.process.AgentChildren;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.SafetyStatus;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.PeersDao;
import dev.hmpagent.store.RunnerLock;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LLM's {@code agent_spawn} starts a real child, {@code agent run} in a JVM of its own on its own file under
 * {@code children/NAME/}, recorded as a peer; a halt of the parent (its one stop signal, as {@code agent halt} raises
 * it) halts the child in its file; the parent's end ends the child's process. Whether the child answers over A2A is
 * the A2A server's test.
 */
public class SpawnEndToEndTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();
    final RecordingSink sink = new RecordingSink();
    Store store;
    Path db;
    Wiring.Tools tools;
    Cycle cycle;

    @BeforeEach
    void open() {
        db = dir.resolve("agent.db");
        store = Store.open(db, clock);
        AgentConfig d = AgentConfig.defaults();
        AgentConfig config = new AgentConfig(new AgentSection(db, "parent"), d.llm(), d.cycle(), d.context(), d.run(),
                d.policy(), d.files(), d.shell(), d.cleanup(), d.safety(), d.stagnation(), d.sandbox(), d.mcp(), d.a2a());
        tools = Wiring.tools(config, Approver.NOBODY, List.of(), Map.of("PATH", System.getenv("PATH"),
                "HOME", dir.resolve("home").toString(), "LANG", "C.UTF-8"), clock, () -> llm);
        cycle = Wiring.cycle(config, store, llm, sink, clock, TestWiring.time(clock), tools);
    }

    @AfterEach
    void close() {
        tools.children().close();
        store.close();
    }

    /** The child's runner, once its process holds its file (a JVM start: polled, up to a minute). */
    public static Optional<RunnerLock.Holder> liveRunner(Path childDb) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.isRegularFile(childDb)) {
                try (Store child = Store.openReadOnly(childDb, Clock.systemUTC())) {
                    RunnerLock lock = RunnerLock.forThisProcess(child);
                    Optional<RunnerLock.Holder> h = lock.seen().map(RunnerLock.Seen::holder).filter(lock::live);
                    if (h.isPresent()) return h;
                } catch (RuntimeException e) {
                    // the child is still making its file
                }
            }
            Thread.sleep(100);   // another process's start: nothing here to be woken by
        }
        return Optional.empty();
    }

    @Test
    void agent_spawn_starts_a_child_on_its_own_file_which_a_halt_of_the_parent_halts() throws Exception {
        new NotesDao(store).add("get a helper", "user", 0, null);
        llm.reply("A helper.\n# Commands:\n```json\n[{\"cmd_id\": \"sp\", \"type\": \"agent_spawn\", \"args\":"
                + " {\"name\": \"helper\"}}]\n```\n# End commands\n");
        cycle.tick();
        assertThat(store.tables().processLog().byTick(1)).anySatisfy(r -> assertThat(r.result())
                .startsWith("child helper started: http://127.0.0.1:"));
        List<PeersDao.Child> kids = store.tables().peers().children();
        assertThat(kids).extracting(PeersDao.Child::name).containsExactly("helper");

        Path childDb = ChildAgents.db(db, "helper");
        Optional<RunnerLock.Holder> runner = liveRunner(childDb);
        assertThat(runner).as("the child runs on its own file; its log:%n%s", log()).isPresent();
        long pid = tools.children().states().get(0).pid();
        assertThat(runner.get().pid()).as("the supervisor's process is the file's runner").isEqualTo(pid);

        cycle.stops().halt();

        try (Store child = Store.openReadOnly(childDb, clock)) {
            SafetyStatus status = new SafetyControl(child).current();
            assertThat(status.label()).isEqualTo("STOPPED(halt)");
        }
        tools.children().close();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("ended with the parent").isFalse();
        assertThat(tools.children().states()).extracting(AgentChildren.State::phase)
                .containsExactly(AgentChildren.Phase.STOPPED);
    }

    private String log() throws java.io.IOException {
        Path log = ChildAgents.folder(db, "helper").resolve("child.log");
        return Files.exists(log) ? Files.readString(log) : "(none)";
    }
}
