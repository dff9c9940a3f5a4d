package dev.hmpagent.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hmpagent.policy.ControlSurface;
import dev.hmpagent.testing.Bwrap;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Commands run through the process runner inside a real bubblewrap sandbox (skipped where bwrap cannot work). */
@Timeout(60)
class SandboxTest {
    private static final long WAIT_S = 30;

    @TempDir Path dir;
    Path root;
    Path db;
    Path home;
    Sandbox.SandboxHost host;
    final List<ProcessRunner> runners = new ArrayList<>();
    final AtomicLong ids = new AtomicLong(1);

    @BeforeEach
    void setUp() throws IOException {
        host = Bwrap.required();
        root = Files.createDirectories(dir.resolve("workspace"));
        db = dir.resolve("agent.db");
        Files.writeString(db, "not for the LLM");
        Files.writeString(dir.resolve("agent.toml"), "[llm]\nmodel = \"m\"\n");
        home = Files.createDirectories(dir.resolve("home"));
        Files.writeString(home.resolve("id_rsa"), "PRIVATE KEY");
    }

    @AfterEach
    void stopAll() {
        runners.forEach(r -> r.stopAll("test over"));
    }

    Sandbox sandbox(Sandbox.Limits limits) {
        return Sandbox.plan(host, limits, List.of(root), surface(), home);
    }

    ControlSurface surface() {
        return ControlSurface.forDatabase(db, List.of(dir.resolve("agent-scripts")), List.of(dir.resolve("agent.toml")));
    }

    ProcessResult run(Sandbox sandbox, String command) throws Exception {
        return run(sandbox, new ProcessSpec(ids.incrementAndGet(), command, root, Duration.ofSeconds(20)));
    }

    ProcessResult run(Sandbox sandbox, ProcessSpec spec) throws Exception {
        ProcessRunner runner = new ProcessRunner(2, 64 * 1024, Clock.systemUTC(),
                Map.of("PATH", "/usr/local/bin:/usr/bin:/bin", "HOME", home.toString(), "OPENAI_API_KEY", "sk-agent-key"),
                sandbox);
        runners.add(runner);
        CompletableFuture<ProcessResult> done = new CompletableFuture<>();
        StartResult started = runner.start(spec, done::complete);
        assertThat(started).isInstanceOf(StartResult.Started.class);
        return done.get(WAIT_S, TimeUnit.SECONDS);
    }

    static Sandbox.Limits limits() {
        return new Sandbox.Limits(false, 1024 * 1024, 64);
    }

    @Test
    void a_command_works_in_its_root_and_sees_nothing_of_the_machine_beyond_the_system() throws Exception {
        ProcessResult r = run(sandbox(limits()), "echo made > made.txt && cat made.txt && pwd && ls " + dir
                + " ; cat " + db + " ; cat " + home.resolve("id_rsa") + " ; ls -A $HOME | wc -l ; echo home=$HOME");

        assertThat(Files.readString(root.resolve("made.txt"))).isEqualTo("made\n");
        assertThat(r.output()).contains("made\n" + root + "\n")
                .contains("home=" + home)
                .doesNotContain("not for the LLM").doesNotContain("PRIVATE KEY")
                .contains(db + ": No such file or directory")
                .as("the database's folder holds only the mount points of the root and HOME")
                .contains(root + "\nhome\nworkspace\n");
        assertThat(r.output().lines().filter(l -> l.equals("0")).count()).as("an empty private HOME").isEqualTo(1);
    }

    @Test
    void its_own_proc_shows_no_process_of_the_agent_and_no_environment_with_the_key() throws Exception {
        long self = ProcessHandle.current().pid();
        ProcessResult r = run(sandbox(limits()), "ls /proc | grep -c '^[0-9]' ; cat /proc/$PPID/cmdline | tr '\\0' ' ';"
                + " echo; grep -a -z -o 'OPENAI[A-Z_]*=.*' /proc/*/environ /proc/$PPID/./environ ; echo ppid=$PPID");

        assertThat(r.output()).doesNotContain("sk-agent-key").doesNotContain("OPENAI_API_KEY=")
                .doesNotContain("java").contains("ppid=");
        int pids = Integer.parseInt(r.output().lines().findFirst().orElseThrow().strip());
        assertThat(pids).as("processes visible inside: the sandbox's own few").isLessThan(10);
        assertThat(r.output()).doesNotContain("ppid=" + self);
    }

    @Test
    void it_has_no_capabilities_and_cannot_make_another_user_namespace() throws Exception {
        ProcessResult r = run(sandbox(limits()), "grep CapEff /proc/self/status; unshare -U true && echo nested");

        assertThat(r.output()).contains("CapEff:\t0000000000000000").doesNotContain("nested");
    }

    @Test
    void there_is_no_network_unless_it_is_allowed() throws Exception {
        ProcessResult off = run(sandbox(limits()), "cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d ' '");
        ProcessResult on = run(sandbox(new Sandbox.Limits(true, 1024 * 1024, 64)),
                "cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d ' '");

        assertThat(off.output().strip()).isEqualTo("lo");
        assertThat(on.output().lines().count()).as("the host's interfaces").isGreaterThanOrEqualTo(1);
    }

    @Test
    void a_file_bigger_than_the_cap_is_cut_at_the_cap_and_the_writer_fails() throws Exception {
        ProcessResult r = run(sandbox(limits()), "head -c 200000000 /dev/zero > big.bin");

        assertThat(r.status()).isEqualTo(ProcessEnd.ERROR);
        assertThat(Files.size(root.resolve("big.bin"))).isEqualTo(1024 * 1024);
    }

    @Test
    void a_command_cannot_run_more_processes_than_the_cap() throws Exception {
        Sandbox sandbox = sandbox(new Sandbox.Limits(false, 1024 * 1024, 16));
        org.junit.jupiter.api.Assumptions.assumeFalse(sandbox.processCap().contains("not capped"),
                () -> "skipped: " + sandbox.processCap());
        ProcessResult r = run(sandbox, "i=0; while [ $i -lt 40 ]; do sleep 5 & i=$((i+1)); done; echo launched; kill 0");

        assertThat(r.output()).containsAnyOf("Cannot fork", "fork", "Resource temporarily unavailable");
    }

    @Test
    void a_process_that_leaves_the_tree_and_drops_its_marker_dies_with_the_command() throws Exception {
        ProcessResult r = run(sandbox(limits()), "setsid -f env -u HMP_AGENT_PROC sleep 987 ; echo left");

        assertThat(r.status()).isEqualTo(ProcessEnd.OK);
        assertThat(r.output()).contains("left");
        assertThat(processesRunning("sleep 987")).as("no survivor of the sandbox").isEmpty();
    }

    @Test
    void a_command_outlives_the_thread_that_asked_for_it() throws Exception {
        Sandbox sandbox = sandbox(limits());
        ProcessRunner runner = new ProcessRunner(2, 4096, Clock.systemUTC(), Map.of("PATH", "/usr/bin:/bin"), sandbox);
        runners.add(runner);
        CompletableFuture<ProcessResult> done = new CompletableFuture<>();
        Path go = root.resolve("go");
        AtomicReference<StartResult> started = new AtomicReference<>();
        AtomicReference<Path> askerTask = new AtomicReference<>();
        Thread asker = new Thread(() -> {
            try {
                askerTask.set(Path.of("/proc/self/task").resolve(Files.readSymbolicLink(Path.of("/proc/thread-self"))
                        .getFileName()));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            started.set(runner.start(new ProcessSpec(ids.incrementAndGet(),
                    "touch running; while [ ! -e go ]; do sleep 0.05; done; echo still here", root, Duration.ofSeconds(20)),
                    done::complete));
            // the asking thread ends only once the command runs: bwrap has armed its parent-death signal by then
            awaitFile(root.resolve("running"));
        });
        asker.start();
        asker.join();
        assertThat(started.get()).isInstanceOf(StartResult.Started.class);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
        while (Files.exists(askerTask.get()) && System.nanoTime() < deadline) {
            Thread.onSpinWait();   // the kernel's thread, not only Java's, must be gone before the test goes on
        }
        assertThat(askerTask.get()).as("the asking thread has left the kernel").doesNotExist();

        Files.writeString(go, "");   // only now, with the asking thread gone, may the command finish
        ProcessResult r = done.get(WAIT_S, TimeUnit.SECONDS);

        assertThat(r.status()).isEqualTo(ProcessEnd.OK);
        assertThat(r.output()).contains("still here");
    }

    @Test
    void a_script_outside_the_roots_is_readable_by_its_command_alone_and_never_writable() throws Exception {
        Path scripts = Files.createDirectories(dir.resolve("agent-scripts"));
        Path script = Files.writeString(scripts.resolve("report-1.sh"), "echo from the script\n");
        Files.writeString(scripts.resolve("other-1.sh"), "echo other\n");
        Sandbox sandbox = sandbox(limits());

        ProcessResult r = run(sandbox, new ProcessSpec(ids.incrementAndGet(), "sh " + script + "; echo x >> " + script
                + "; cat " + scripts.resolve("other-1.sh"), root, Duration.ofSeconds(20), List.of(script)));

        assertThat(r.output()).contains("from the script").doesNotContain("other\n");
        assertThat(Files.readString(script)).isEqualTo("echo from the script\n");
    }

    @Test
    void a_root_that_holds_the_database_is_refused_with_one_line_saying_what_to_change() {
        assertThatThrownBy(() -> Sandbox.plan(host, limits(), List.of(dir), surface(), home))
                .isInstanceOf(Sandbox.Unsafe.class)
                .hasMessageContaining(db.getFileName().toString())
                .hasMessageContaining("files.roots").hasMessageContaining("sandbox.mode")
                .hasMessageNotContaining("\n");
        assertThat(dir.resolve("agent.db.halt")).as("nothing created on the host").doesNotExist();
    }

    @Test
    void a_config_file_in_a_root_is_refused_even_before_it_exists() throws IOException {
        Files.delete(dir.resolve("agent.toml"));
        ControlSurface surface = ControlSurface.forDatabase(Files.createDirectories(dir.resolve("state")).resolve("agent.db"),
                List.of(), List.of(root.resolve("agent.toml")));

        assertThatThrownBy(() -> Sandbox.plan(host, limits(), List.of(root), surface, home))
                .isInstanceOf(Sandbox.Unsafe.class).hasMessageContaining("agent.toml");
    }

    /** Waits (bounded) until the command has made {@code file}. */
    static void awaitFile(Path file) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
        while (!Files.exists(file) && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }

    /** Pids of live processes whose command line contains {@code text}. */
    static List<Long> processesRunning(String text) throws IOException {
        List<Long> found = new ArrayList<>();
        try (var dirs = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString().matches("\\d+"))) {
            for (Path p : dirs) {
                try {
                    String cmdline = new String(Files.readAllBytes(p.resolve("cmdline")), StandardCharsets.UTF_8)
                            .replace('\0', ' ');
                    String stat = Files.readString(p.resolve("stat"));
                    boolean zombie = stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
                    if (cmdline.contains(text) && !zombie) found.add(Long.parseLong(p.getFileName().toString()));
                } catch (IOException e) {
                    // gone meanwhile
                }
            }
        }
        return found;
    }
}
