package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/lib/cds.bash, which scripts/agent sources: where the class-data archive of a jar lives, how it is made and
 * published, and that a JVM given a damaged archive with its flags still starts and says nothing more. The making is
 * shown with a fake {@code java} that writes what the real one would; scripts/agent itself is tried by hand.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CdsScriptTest {
    private static final Path LIBRARY = Path.of("scripts/lib/cds.bash").toAbsolutePath();

    @TempDir Path dir;

    @Test
    void the_archive_lives_beside_the_jar_and_is_named_by_the_jar_and_the_java_that_runs_it() throws Exception {
        Path jar = Files.writeString(dir.resolve("hmp-agent.jar"), "jar");
        Path java = Files.writeString(dir.resolve("java"), "java");
        Path other = Files.writeString(dir.resolve("java-other"), "java, another build");
        String archive = archiveFor(jar, java);
        assertThat(archive).matches(dir.resolve("hmp-agent-").toString().replace(".", "\\.") + "[0-9]+\\.jsa");
        assertThat(archiveFor(jar, java)).isEqualTo(archive);
        assertThat(archiveFor(jar, other)).as("another JDK").isNotEqualTo(archive);

        Files.setLastModifiedTime(jar, FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));
        String rebuilt = archiveFor(jar, java);
        assertThat(rebuilt).as("a rebuilt jar").isNotEqualTo(archive);
        Files.writeString(jar, "jar, larger");
        Files.setLastModifiedTime(jar, FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));
        assertThat(archiveFor(jar, java)).as("same time, another size").isNotEqualTo(rebuilt);
    }

    @Test
    void no_key_no_archive_when_a_file_is_missing() throws Exception {
        Path java = Files.writeString(dir.resolve("java"), "java");
        Result r = bash("source \"$0\"; cds_archive_for \"$1\" \"$2\" || echo none; echo \"[$CDS_ARCHIVE]\"",
                LIBRARY.toString(), dir.resolve("missing.jar").toString(), java.toString());
        assertThat(r.out()).isEqualTo("none\n[]\n");
    }

    @Test
    void a_build_trains_on_a_throwaway_file_dumps_and_publishes_the_archive_and_removes_older_ones() throws Exception {
        Path jar = Files.writeString(dir.resolve("hmp-agent.jar"), "jar");
        Path old = Files.writeString(dir.resolve("hmp-agent-123.jsa"), "another jar's archive");
        Path java = fakeJava("ok");
        String archive = archiveFor(jar, java);

        Result r = build(jar, java, archive, Map.of("AGENT_DB", "/home/someone/agent.db", "OPENAI_API_KEY", "sk-x"));

        assertThat(r.out()).isEmpty();
        assertThat(Path.of(archive)).hasContent("archive of: a class list");
        assertThat(old).doesNotExist();
        assertThat(leftovers()).isEmpty();
        List<String> calls = Files.readAllLines(dir.resolve("calls.log"));
        assertThat(calls).hasSize(2);
        String training = calls.get(0);
        assertThat(training).startsWith("-XX:TieredStopAtLevel=1 -Xshare:off -XX:DumpLoadedClassList=")
                .contains(" -jar " + jar + " --db ").contains("/training.db --base-url http://127.0.0.1:9/v1")
                .contains(" stdin=empty").contains(" config=[cycle] autonomous = false")
                .doesNotContain("AGENT_DB").doesNotContain("sk-x");
        assertThat(calls.get(1)).startsWith("-XX:TieredStopAtLevel=1 -Xshare:dump -XX:SharedClassListFile=")
                .contains(" -cp " + jar);
    }

    @Test
    void a_build_while_another_holds_the_lock_leaves_at_once_and_makes_nothing() throws Exception {
        Path jar = Files.writeString(dir.resolve("hmp-agent.jar"), "jar");
        Path java = fakeJava("ok");
        String archive = archiveFor(jar, java);
        Path lock = dir.resolve("hmp-agent-cds.lock");
        Process holder = new ProcessBuilder("flock", lock.toString(), "sleep", "60").start();
        try {
            for (int i = 0; i < 100 && !Files.exists(lock); i++) Thread.sleep(20);
            Thread.sleep(100);   // flock(1) has the lock once it runs sleep
            build(jar, java, archive, Map.of());
        } finally {
            holder.destroy();
            holder.waitFor(10, TimeUnit.SECONDS);
        }
        assertThat(Path.of(archive)).doesNotExist();
        assertThat(dir.resolve("calls.log")).doesNotExist();
    }

    @Test
    void a_failed_training_or_dump_publishes_nothing_and_leaves_nothing_behind() throws Exception {
        Path jar = Files.writeString(dir.resolve("hmp-agent.jar"), "jar");
        for (String mode : List.of("no-class-list", "dump-fails")) {
            Path java = fakeJava(mode);
            String archive = archiveFor(jar, java);
            assertThat(build(jar, java, archive, Map.of()).out()).isEmpty();
            assertThat(Path.of(archive)).as(mode).doesNotExist();
            assertThat(leftovers()).as(mode).isEmpty();
        }
    }

    @Test
    void the_build_waits_while_the_agent_being_started_is_busy_and_not_while_it_is_idle() throws Exception {
        Process busy = new ProcessBuilder("bash", "-c", "while :; do :; done").start();
        Process idle = new ProcessBuilder("sleep", "60").start();
        try {
            Thread stopper = new Thread(() -> {
                try {
                    Thread.sleep(1_000);
                } catch (InterruptedException e) {
                    return;
                }
                busy.destroyForcibly();
            });
            stopper.start();
            String check = "source \"$0\" && cds_wait_until_quiet \"$1\"; kill -0 \"$1\" 2>/dev/null && echo running || echo ended";
            String whileBusy = bash(check, LIBRARY.toString(), Long.toString(busy.pid())).out();
            if (!whileBusy.equals("ended\n")) assumeBusyGotCpu(busy);
            assertThat(whileBusy).isEqualTo("ended\n");
            stopper.join();
            assertThat(bash(check, LIBRARY.toString(), Long.toString(idle.pid())).out()).isEqualTo("running\n");
            assertThat(bash("source \"$0\" && cds_wait_until_quiet 0 && echo returned", LIBRARY.toString()).out())
                    .as("no process to wait for").isEqualTo("returned\n");
        } finally {
            busy.destroyForcibly();
            idle.destroyForcibly();
        }
    }

    @Test
    void a_jvm_given_a_damaged_archive_with_these_flags_starts_without_it_and_says_nothing_more() throws Exception {
        Path garbage = dir.resolve("hmp-agent-1.jsa");
        byte[] bytes = new byte[64 * 1024];
        new java.util.Random(7).nextBytes(bytes);
        Files.write(garbage, bytes);
        Path empty = Files.createFile(dir.resolve("hmp-agent-2.jsa"));
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        for (Path archive : List.of(garbage, empty, dir.resolve("hmp-agent-missing.jsa"))) {
            Result r = bash("source \"$0\"; exec \"$1\" \"${CDS_RUNTIME_FLAGS[@]}\" -XX:SharedArchiveFile=\"$2\" -cp \"$3\" "
                            + "dev.hmpagent.cli.Main --version",
                    Map.of("XDG_CACHE_HOME", dir.resolve("cache").toString()), LIBRARY.toString(), java.toString(),
                    archive.toString(), System.getProperty("java.class.path"));
            assertThat(r.code()).as(archive.getFileName().toString()).isZero();
            assertThat(r.out()).as(archive.getFileName().toString()).isEqualTo("hmp-agent " + Version.current() + "\n");
        }
    }

    // ---- helpers -------------------------------------------------------------------------------

    private record Result(int code, String out) { }

    private String archiveFor(Path jar, Path java) throws Exception {
        Result r = bash("source \"$0\" && cds_archive_for \"$1\" \"$2\" && printf %s \"$CDS_ARCHIVE\"", LIBRARY.toString(),
                jar.toString(), java.toString());
        assertThat(r.code()).as(r.out()).isZero();
        return r.out();
    }

    private Result build(Path jar, Path java, String archive, Map<String, String> env) throws Exception {
        // with something to read on stdin, as when a person starts the agent: the training must not take it
        return bash("source \"$0\" && cds_build \"$1\" \"$2\" \"$3\" 0 -XX:TieredStopAtLevel=1 <<<'hello'", env,
                LIBRARY.toString(), jar.toString(), java.toString(), archive);
    }

    /** The build's temporary directories. */
    private List<String> leftovers() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.startsWith(".hmp-agent-cds")).toList();
        }
    }

    /**
     * A {@code java} that logs its arguments (and whether stdin is empty, the config file in its working directory and
     * the environment) to calls.log and writes what the real one would: the class list of a training run, the archive of
     * a dump. {@code mode} "no-class-list" writes no class list; "dump-fails" exits 1 at the dump.
     */
    private Path fakeJava(String mode) throws IOException {
        Path java = dir.resolve("java-" + mode);
        Files.writeString(java, """
                #!/usr/bin/env bash
                stdin=$(if [[ -z "$(cat)" ]]; then echo empty; else echo data; fi)
                echo "$* stdin=$stdin config=$(cat agent.toml 2>/dev/null | tr '\\n' ' ' | sed 's/ *$//') env=$(env | tr '\\n' ' ')" \
                    >> "%s/calls.log"
                for a in "$@"; do
                  case "$a" in
                    -XX:DumpLoadedClassList=*) [[ %s == no-class-list ]] || echo "a class list" > "${a#*=}" ;;
                    -XX:SharedArchiveFile=*) [[ %s == dump-fails ]] && exit 1; list=$(cat "$listfile"); echo "archive of: $list" > "${a#*=}" ;;
                    -XX:SharedClassListFile=*) listfile="${a#*=}" ;;
                  esac
                done
                """.formatted(dir, mode, mode));
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
        return java;
    }

    /**
     * Skips when the busy loop got less than a quarter of a core over its life: a host with no CPU to spare (other
     * builds, a small shared box) lets it run so rarely that "quiet" is the right reading, and the test needs slack.
     */
    private static void assumeBusyGotCpu(Process busy) {
        ProcessHandle.Info info = busy.info();
        Assumptions.assumeTrue(info.totalCpuDuration().isPresent() && info.startInstant().isPresent(),
                "skipped: the busy loop's CPU time cannot be read on this host");
        long cpu = info.totalCpuDuration().get().toNanos();
        long alive = Math.max(1, Duration.between(info.startInstant().get(), Instant.now()).toNanos());
        Assumptions.assumeTrue(cpu * 4 >= alive, () -> String.format(Locale.ROOT, "skipped: the host has no CPU to"
                + " spare: a busy loop got %d%% of a core (this test needs at least 25%%)", cpu * 100 / alive));
    }

    private static Result bash(String script, String... args) throws Exception {
        return bash(script, Map.of(), args);
    }

    private static Result bash(String script, Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", "-c", script));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectInput(new File("/dev/null"));
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(100, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), out);
    }
}
