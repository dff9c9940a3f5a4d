package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.a2a.ChildAgents;
import dev.hmpagent.store.RunnerLock;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.AgentProgram;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tree as a person drives it: a real {@code agent run} parent, {@code agent spawn helper} from another process
 * (through the control channel), {@code agent halt} on the parent halts the child in its file, {@code agent status
 * --tree} shows both, and the parent's SIGTERM ends the child's process.
 */
class SpawnTreeEndToEndTest {
    @TempDir Path dir;
    Process parent;

    @AfterEach
    void stop() throws Exception {
        if (parent != null && parent.isAlive()) {
            parent.destroyForcibly();
            parent.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** The live runner of {@code db} once a process holds it (another JVM's start: polled, up to a minute). */
    static Optional<Long> runnerPid(Path db) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.isRegularFile(db)) {
                try (Store s = Store.openReadOnly(db, Clock.systemUTC())) {
                    RunnerLock lock = RunnerLock.forThisProcess(s);
                    Optional<Long> pid = lock.seen().map(RunnerLock.Seen::holder).filter(lock::live).map(h -> h.pid());
                    if (pid.isPresent()) return pid;
                } catch (RuntimeException e) {
                    // still being made
                }
            }
            Thread.sleep(100);   // another process's start: nothing here to be woken by
        }
        return Optional.empty();
    }

    @Test
    void spawn_halt_and_status_tree_across_two_agents() throws Exception {
        AgentProgram program = AgentProgram.in(dir, "http://127.0.0.1:9/v1");
        List<String> argv = new ArrayList<>(program.argv());
        argv.add("run");
        ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("parent.log").toFile()).redirectInput(new File("/dev/null"));
        pb.environment().clear();
        pb.environment().putAll(program.env("dumb"));
        parent = pb.start();
        Path db = program.db();
        assertThat(runnerPid(db)).as("the parent runs; its log: %s", log(dir.resolve("parent.log"))).isPresent();

        CliRun spawn = CliRun.agent("spawn", "helper", "--db", db.toString());
        assertThat(spawn.code()).as(spawn.err()).isZero();
        assertThat(spawn.out()).startsWith("child helper started: http://127.0.0.1:");
        Path childDb = ChildAgents.db(db, "helper");
        Optional<Long> child = runnerPid(childDb);
        assertThat(child).as("the child runs; its log: %s",
                log(ChildAgents.folder(db, "helper").resolve("child.log"))).isPresent();

        assertThat(CliRun.agent("halt", "--db", db.toString()).code()).isZero();
        String tree = "";
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline && !tree.contains("helper: STOPPED(halt)")) {
            tree = CliRun.agent("status", "--tree", "--db", db.toString()).out();
            Thread.sleep(50);   // the parent's control watcher, in another process, halts the child within a poll
        }
        assertThat(tree).contains("agent.db: STOPPED(halt), running (pid " + parent.pid() + ")")
                .contains("\n  helper: STOPPED(halt), running (pid " + child.get() + ") http://127.0.0.1:");

        parent.destroy();   // SIGTERM: the parent ends, and its child with it
        assertThat(parent.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(ProcessHandle.of(child.get()).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }

    private static String log(Path file) throws java.io.IOException {
        return Files.exists(file) ? Files.readString(file) : "(none)";
    }
}
