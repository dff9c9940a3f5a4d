package dev.hmpagent.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.policy.ControlSurface;
import dev.hmpagent.testing.Bwrap;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a sandboxed command left running, as its result says it: only the command's own processes, never the
 * sandbox's (bubblewrap's process 1 of the command's PID namespace is still exiting for a moment after the
 * command's shell has, and a loaded machine makes that moment long).
 */
@Timeout(300)
class SandboxLeftoversTest {
    @TempDir Path dir;

    @Test
    void two_hundred_short_commands_under_cpu_load_never_report_a_background_process() throws Exception {
        ProcessRunner runner = runner(4);
        Path file = Files.writeString(dir.resolve("workspace").resolve("f.txt"), "some text\n");
        AtomicBoolean loaded = new AtomicBoolean(true);
        List<Thread> load = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Thread spin = new Thread(() -> {
                long x = 0;
                while (loaded.get()) x += System.nanoTime() % 7;
                if (x == 42) System.out.print("");
            });
            spin.setDaemon(true);
            spin.start();
            load.add(spin);
        }
        List<ProcessResult> results = new ArrayList<>();
        try {
            for (int round = 0; round < 50; round++) {
                List<CompletableFuture<ProcessResult>> batch = new ArrayList<>();
                for (int n = 0; n < 4; n++) {
                    long id = round * 4L + n + 1;
                    String command = n % 2 == 0 ? "cat " + file : "true";
                    batch.add(start(runner, id, command));
                }
                for (CompletableFuture<ProcessResult> r : batch) results.add(r.get(60, TimeUnit.SECONDS));
            }
        } finally {
            loaded.set(false);
            runner.stopAll("test over");
        }

        assertThat(results).hasSize(200);
        assertThat(results).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo(ProcessEnd.OK);
            assertThat(r.reason()).isEqualTo("exit 0");
            assertThat(r.output()).isIn("", "some text\n");
        });
    }

    private static final String LEFTOVER = "sleep 60.4142";

    @Test
    void a_real_leftover_is_still_reported_and_killed() throws Exception {
        ProcessRunner runner = runner(2);
        try {
            // a duration no other test sleeps: the suite runs in two JVMs, and the other one may have its own
            // "sleep 60" running just now (it was taken for a survivor of this one)
            ProcessResult r = start(runner, 1, LEFTOVER + " & echo started").get(60, TimeUnit.SECONDS);

            assertThat(r.output()).isEqualTo("started\n");
            assertThat(r.reason()).isEqualTo("exit 0; 1 background process it left running killed");
            // killed inside the sandbox before the result; the host's process table may show it a moment longer, while
            // the kernel tears the sandbox down: a survivor is one still there after that
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!SandboxTest.processesRunning(LEFTOVER).isEmpty() && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
            assertThat(SandboxTest.processesRunning(LEFTOVER)).as("no survivor").isEmpty();
        } finally {
            runner.stopAll("test over");
        }
    }

    @Test
    void a_command_that_times_out_or_dies_by_a_signal_shows_only_its_own_output() throws Exception {
        ProcessRunner runner = runner(2);
        try {
            CompletableFuture<ProcessResult> late = new CompletableFuture<>();
            runner.start(new ProcessSpec(1, "echo begun; sleep 30", dir.resolve("workspace"), Duration.ofSeconds(1)),
                    late::complete);
            ProcessResult killed = start(runner, 2, "echo before; kill -9 $$").get(60, TimeUnit.SECONDS);

            assertThat(late.get(60, TimeUnit.SECONDS).status()).isEqualTo(ProcessEnd.TIMEOUT);
            assertThat(late.get().output()).isEqualTo("begun\n");
            assertThat(killed.output()).isEqualTo("before\n");
            assertThat(killed.reason()).isEqualTo("exit 137");
        } finally {
            runner.stopAll("test over");
        }
    }

    private ProcessRunner runner(int max) throws Exception {
        Sandbox.SandboxHost host = Bwrap.required();
        Path root = Files.createDirectories(dir.resolve("workspace"));
        Path home = Files.createDirectories(dir.resolve("home"));
        ControlSurface surface = ControlSurface.forDatabase(dir.resolve("agent.db"), List.of(), List.of());
        Sandbox sandbox = Sandbox.plan(host, new Sandbox.Limits(false, 1024 * 1024, 64), List.of(root), surface, home);
        return new ProcessRunner(max, 4096, Clock.systemUTC(), Map.of("PATH", "/usr/bin:/bin"), sandbox);
    }

    private CompletableFuture<ProcessResult> start(ProcessRunner runner, long id, String command) {
        CompletableFuture<ProcessResult> done = new CompletableFuture<>();
        StartResult started = runner.start(new ProcessSpec(id, command, dir.resolve("workspace"), Duration.ofSeconds(30)),
                done::complete);
        assertThat(started).isInstanceOf(StartResult.Started.class);
        return done;
    }
}
