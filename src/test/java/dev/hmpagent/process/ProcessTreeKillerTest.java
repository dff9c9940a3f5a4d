package dev.hmpagent.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A grandchild a command left running is found by the marker in its environment; one looked at while in
 * {@code exec} shows no environment yet and escaped every kill (12 looks in 300 on a loaded machine, issue 36). Over a
 * {@code /proc} of the test's own making: such a process is unsure, looked at again, and killed once its environment
 * shows; kernel threads, zombies and processes with a command line are not waited for.
 */
class ProcessTreeKillerTest {
    static final String MARKER = ProcessRunner.MARKER_VARIABLE + "=test-1";

    @TempDir Path proc;
    Process leftover;

    @AfterEach
    void noLeftover() {
        if (leftover != null) leftover.destroyForcibly();
    }

    /** A pid directory: its environment, command line, and a stat with this state and these flags. */
    private void pid(long pid, String environ, String cmdline, char state, long flags) throws IOException {
        Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)));
        Files.writeString(dir.resolve("environ"), environ, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("cmdline"), cmdline, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("stat"), pid + " (sleep (odd) name) " + state + " 1 " + pid + " " + pid
                + " 0 -1 " + flags + " 0 0 0 0 0 0 0 0 20 0 1 0 12345");
    }

    @Test
    void a_process_in_exec_is_unsure_and_nothing_else_is() throws IOException {
        pid(100, "PATH=/bin\0" + MARKER + "\0", "sleep\0" + "60\0", 'S', 0);
        pid(101, "", "", 'R', 0x40);                 // between fork and the end of exec
        pid(102, "", "", 'S', 0x00208040L);          // a kernel thread
        pid(103, "", "", 'Z', 0);                    // a zombie
        pid(104, "", "/usr/sbin/daemon\0", 'S', 0);  // a process that runs with no environment at all
        pid(105, "PATH=/bin\0", "sleep\0", 'S', 0);  // someone else's

        ProcFs.Scan scan = new ProcFs(proc).scan(Set.of(MARKER));

        assertThat(scan.marked()).containsExactly(100L);
        assertThat(scan.unsure()).containsExactly(101L);
    }

    @Test
    void a_grandchild_caught_in_exec_is_looked_at_again_and_killed_once_its_environment_shows() throws Exception {
        leftover = new ProcessBuilder("sleep", "61.777").start();
        long pid = leftover.pid();
        pid(pid, "", "", 'R', 0);
        AtomicInteger pauses = new AtomicInteger();
        ProcessTreeKiller killer = new ProcessTreeKiller(new ProcFs(proc), Duration.ofSeconds(1), () -> {
            // the exec ends: the environment and command line are there at the next look
            if (pauses.incrementAndGet() == 2) {
                try {
                    pid(pid, "PATH=/bin\0" + MARKER + "\0", "sleep\0" + "61.777\0", 'S', 0);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        });

        int killed = killer.kill(List.of(new ProcessTreeKiller.Tree(ended(), MARKER)));

        assertThat(killed).isEqualTo(1);
        assertThat(leftover.waitFor(10, TimeUnit.SECONDS)).as("the leftover is dead").isTrue();
        assertThat(pauses.get()).as("looked at again until its environment showed").isEqualTo(2);
    }

    @Test
    void a_process_that_stays_unsure_is_looked_at_a_bounded_number_of_times() throws Exception {
        pid(4_000_000L, "", "", 'R', 0);   // no such process: nothing to kill, however it looks
        AtomicInteger pauses = new AtomicInteger();
        ProcessTreeKiller killer = new ProcessTreeKiller(new ProcFs(proc), Duration.ofSeconds(1),
                pauses::incrementAndGet);

        assertThat(killer.kill(List.of(new ProcessTreeKiller.Tree(ended(), MARKER)))).isZero();
        assertThat(pauses.get()).isEqualTo(2 * ProcessTreeKiller.UNSURE_LOOKS);   // the first look and the check after
    }

    /** The handle of a process that has ended: a tree whose root is gone, as a finished command's is. */
    private static ProcessHandle ended() throws Exception {
        Process done = new ProcessBuilder("true").start();
        done.waitFor(10, TimeUnit.SECONDS);
        return done.toHandle();
    }
}
