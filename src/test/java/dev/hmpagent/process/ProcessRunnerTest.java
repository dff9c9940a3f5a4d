package dev.hmpagent.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessRunnerTest {

    /** An upper bound for anything that should happen at once; never a measure of speed. */
    private static final long WAIT_S = 20;
    private static final Duration LONG = Duration.ofSeconds(30);
    /** The children's PATH: a clean environment, whatever the developer's shell exports (or leaves out). */
    private static final String PATH = "/usr/bin:/bin";

    @TempDir
    Path dir;

    private final AtomicLong ids = new AtomicLong(100);
    private final List<ProcessRunner> runners = new ArrayList<>();

    @AfterEach
    void killWhateverIsLeft() {
        runners.forEach(r -> r.stopAll("test over"));
    }

    private ProcessRunner runner(int maxProcesses, int outputCapBytes) {
        return runner(maxProcesses, outputCapBytes, Clock.systemUTC(), Map.of("PATH", PATH));
    }

    private ProcessRunner runner(int maxProcesses, int outputCapBytes, Clock clock, Map<String, String> env) {
        ProcessRunner runner = new ProcessRunner(maxProcesses, outputCapBytes, clock, env);
        runners.add(runner);
        return runner;
    }

    private ProcessSpec spec(String command, Duration timeout) {
        return new ProcessSpec(ids.incrementAndGet(), command, dir, timeout);
    }

    /** Collects what onFinish reports, and how often. */
    private static final class Finish implements Consumer<ProcessResult> {
        final CompletableFuture<ProcessResult> result = new CompletableFuture<>();
        final AtomicInteger calls = new AtomicInteger();
        volatile String thread;
        long pid;

        @Override
        public void accept(ProcessResult r) {
            calls.incrementAndGet();
            thread = Thread.currentThread().getName();
            result.complete(r);
        }

        ProcessResult await() throws Exception {
            ProcessResult r = result.get(WAIT_S, TimeUnit.SECONDS);
            assertThat(calls).as("onFinish calls").hasValue(1);
            return r;
        }
    }

    private static Finish started(ProcessRunner runner, ProcessSpec spec) {
        Finish finish = new Finish();
        StartResult start = runner.start(spec, finish);
        assertThat(start).isInstanceOf(StartResult.Started.class);
        finish.pid = ((StartResult.Started) start).pid();
        return finish;
    }

    private Path fifo(String name) throws Exception {
        Path path = dir.resolve(name);
        Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).start();
        assertThat(mkfifo.waitFor(WAIT_S, TimeUnit.SECONDS)).isTrue();
        assertThat(mkfifo.exitValue()).isZero();
        return path;
    }

    /** Blocks until the child writes its line into the fifo: proof that it got that far. */
    private static String awaitSignal(Path fifo) throws Exception {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return Files.readString(fifo).strip();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }).get(WAIT_S, TimeUnit.SECONDS);
    }

    private List<Long> pids(String file) throws IOException {
        return Files.readAllLines(dir.resolve(file)).stream().map(String::strip).filter(s -> !s.isEmpty())
                .map(Long::parseLong).toList();
    }

    /**
     * Each pid must be gone: no such process, or a zombie (dead, waiting to be reaped, which an
     * orphan in a container may wait for long). One still running gets a bounded wait for its
     * exit; a survivor fails the test and is then killed by the test.
     */
    private static void assertAllDead(List<Long> pids) throws Exception {
        List<Long> survivors = new ArrayList<>();
        for (long pid : pids) {
            Optional<ProcessHandle> handle = ProcessHandle.of(pid);
            if (isGone(pid) || handle.isEmpty()) {
                continue;
            }
            try {
                handle.get().onExit().get(WAIT_S, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                if (!isGone(pid)) {
                    survivors.add(pid);
                    handle.get().destroyForcibly();
                }
            }
        }
        assertThat(survivors).as("processes still alive").isEmpty();
    }

    private static boolean isGone(long pid) {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty() || !handle.get().isAlive()) {
            return true;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (IOException e) {
            return true; // gone since
        }
    }

    @Test
    void aCommandThatSucceedsReportsOkExitZeroAndItsOutput() throws Exception {
        Finish finish = started(runner(4, 8192), spec("echo hello; echo oops >&2", LONG));

        ProcessResult r = finish.await();

        assertThat(r.status()).isEqualTo(ProcessEnd.OK);
        assertThat(r.exitCode()).isZero();
        assertThat(r.output()).isEqualTo("hello\noops\n");
        assertThat(r.reason()).isEqualTo("exit 0");
        assertThat(finish.thread).as("reported from a runner thread").startsWith("hmp-proc-");
    }

    @Test
    void aNonZeroExitIsAnErrorWithItsExitCode() throws Exception {
        Finish finish = started(runner(4, 8192), spec("echo 'no such thing'; exit 3", LONG));

        ProcessResult r = finish.await();

        assertThat(r.status()).isEqualTo(ProcessEnd.ERROR);
        assertThat(r.optionalExitCode()).hasValue(3);
        assertThat(r.output()).isEqualTo("no such thing\n");
        assertThat(r.reason()).isEqualTo("exit 3");
    }

    @Test
    void theRunsWorkingDirectoryIsTheOneAsked() throws Exception {
        Files.writeString(dir.resolve("here.txt"), "found");

        ProcessResult r = started(runner(4, 8192), spec("cat here.txt", LONG)).await();

        assertThat(r.output()).isEqualTo("found");
    }

    @Test
    void stdinIsClosedSoCatWithoutArgumentsEndsAtOnce() throws Exception {
        ProcessResult r = started(runner(4, 8192), spec("cat; echo after-cat", LONG)).await();

        assertThat(r.status()).as("cat waited for input that never comes").isEqualTo(ProcessEnd.OK);
        assertThat(r.output()).isEqualTo("after-cat\n");
    }

    @Test
    void aTimeoutKillsTheChildAndEveryGrandchild() throws Exception {
        String script = """
                sleep 60 & echo $! >> pids
                sh -c 'sleep 60 & echo $! >> pids; sleep 60 & echo $! >> pids; echo $$ >> pids; wait' &
                wait
                """;
        Finish finish = started(runner(4, 8192), spec(script, Duration.ofMillis(1000)));

        ProcessResult r = finish.await();

        assertThat(r.status()).isEqualTo(ProcessEnd.TIMEOUT);
        assertThat(r.exitCode()).isNull();
        assertThat(r.reason()).isEqualTo("timed out after 1 s; its process tree was killed");
        List<Long> tree = new ArrayList<>(pids("pids"));
        assertThat(tree).as("a child, its shell and two grandchildren wrote their pids").hasSize(4);
        tree.add(finish.pid);
        assertAllDead(tree);
    }

    @Test
    void aTimeoutAlsoKillsGrandchildrenThatLeftTheTreeBySetsidOrDoubleFork() throws Exception {
        // The setsid one also ignores SIGTERM, so only the forced kill after the grace ends it.
        String script = """
                setsid -f sh -c 'trap "" TERM; echo $$ >> pids; exec sleep 60'
                ( (sleep 60 & echo $! >> pids) & )
                sleep 60
                """;
        Finish finish = started(runner(4, 8192), spec(script, Duration.ofMillis(1000)));

        ProcessResult r = finish.await();

        assertThat(r.status()).isEqualTo(ProcessEnd.TIMEOUT);
        List<Long> escaped = pids("pids");
        assertThat(escaped).as("both escaped grandchildren wrote their pids").hasSize(2);
        for (long pid : escaped) {
            ProcessHandle.of(pid).ifPresent(h -> assertThat(h.parent().map(ProcessHandle::pid))
                    .as("pid %d left the tree", pid).isNotEqualTo(Optional.of(finish.pid)));
        }
        assertAllDead(escaped);
    }

    @Test
    void aBackgroundProcessLeftByAFinishedCommandIsKilledAndDoesNotHoldItsResult() throws Exception {
        // The double-forked sleep keeps the output pipe open: without killing it, the output never ends. The
        // subshell between waits for the one that forked the sleep, so when the command ends exactly one process
        // is left (without the wait, a loaded machine may still see the forking subshell alive: 2).
        Finish finish = started(runner(4, 8192), spec("( (sleep 60 & echo $! > pids) & wait ); echo done", LONG));

        ProcessResult r = finish.await();

        assertThat(r.status()).isEqualTo(ProcessEnd.OK);
        assertThat(r.output()).isEqualTo("done\n");
        assertThat(r.reason()).isEqualTo("exit 0; 1 background process it left running killed");
        assertAllDead(pids("pids"));
    }

    @Test
    void longOutputKeepsTheTailAndSaysHowMuchWasCut() throws Exception {
        long total = 0;
        for (int i = 1; i <= 100_000; i++) {
            total += Integer.toString(i).length() + 1;
        }

        ProcessResult r = started(runner(4, 100), spec("seq 1 100000", LONG)).await();

        assertThat(r.status()).isEqualTo(ProcessEnd.OK);
        assertThat(r.output()).startsWith("[… " + (total - 100) + " earlier bytes cut; last 100 bytes shown]\n");
        assertThat(r.output()).endsWith("99998\n99999\n100000\n");
        String shown = r.output().substring(r.output().indexOf('\n') + 1);
        assertThat(shown.getBytes(StandardCharsets.UTF_8)).hasSize(100);
    }

    @Test
    void fiftyMegabytesOfOutputStayWithinTheCap() throws Exception {
        ProcessResult r = started(runner(4, 8192), spec("yes | head -c 50000000", LONG)).await();

        assertThat(r.status()).isEqualTo(ProcessEnd.OK);
        assertThat(r.output()).startsWith("[… 49991808 earlier bytes cut; last 8192 bytes shown]\ny\ny\n");
        assertThat(r.output()).hasSize("[… 49991808 earlier bytes cut; last 8192 bytes shown]\n".length() + 8192);
    }

    @Test
    void aFloodUntilTheTimeoutStaysWithinTheCap() throws Exception {
        ProcessResult r = started(runner(4, 8192), spec("yes", Duration.ofMillis(300))).await();

        assertThat(r.status()).isEqualTo(ProcessEnd.TIMEOUT);
        assertThat(r.output()).matches("(?s)\\[… \\d+ earlier bytes cut; last 8192 bytes shown]\n[y\n]+");
        assertThat(r.output().length()).isLessThan(8192 + 100);
    }

    @Test
    void theConcurrencyCapRefusesTheNextStartUntilOneFinishes() throws Exception {
        ProcessRunner runner = runner(2, 8192);
        Path gate = fifo("gate");
        Finish first = started(runner, spec("cat gate > /dev/null", LONG));
        started(runner, spec("sleep 60", LONG));

        Finish neverCalled = new Finish();
        StartResult third = runner.start(spec("echo three", LONG), neverCalled);

        assertThat(third).isEqualTo(new StartResult.Refused("2 processes already running (shell.max_processes = 2);"
                + " wait for one to finish or stop one with process_stop"));

        CompletableFuture.runAsync(() -> {
            try {
                Files.writeString(gate, "go");
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }).get(WAIT_S, TimeUnit.SECONDS);
        assertThat(first.await().status()).isEqualTo(ProcessEnd.OK);

        ProcessResult fourth = started(runner, spec("echo four", LONG)).await();
        assertThat(fourth.output()).isEqualTo("four\n");
        assertThat(neverCalled.calls).as("a refused start never reports").hasValue(0);
    }

    @Test
    void theEnvironmentHoldsNoSecretsButKeepsPathHomeAndLang() throws Exception {
        Map<String, String> base = Map.of(
                "PATH", PATH,
                "HOME", dir.toString(),
                "LANG", "C.UTF-8",
                "OPENAI_API_KEY", "sk-never-shown",
                "MY_TOKEN", "token-never-shown",
                "DB_PASSWORD", "password-never-shown");
        ProcessRunner runner = runner(4, 8192, Clock.systemUTC(), base);
        ProcessSpec spec = spec("env", LONG);

        ProcessResult r = started(runner, spec).await();

        Map<String, String> seen = Arrays.stream(r.output().split("\n"))
                .map(line -> line.split("=", 2))
                .collect(Collectors.toMap(kv -> kv[0], kv -> kv.length > 1 ? kv[1] : ""));
        assertThat(seen).containsEntry("PATH", PATH)
                .containsEntry("HOME", dir.toString())
                .containsEntry("LANG", "C.UTF-8")
                .doesNotContainKeys("OPENAI_API_KEY", "MY_TOKEN", "DB_PASSWORD");
        assertThat(seen.get(ProcessRunner.MARKER_VARIABLE)).matches("[0-9a-f]{16}-" + spec.id());
        assertThat(r.output()).doesNotContain("never-shown");
    }

    @Test
    void stopKillsTheWholeTreeAndReportsKilled() throws Exception {
        Instant now = Instant.parse("2026-11-22T10:00:00Z");
        ProcessRunner runner = runner(4, 8192, Clock.fixed(now, ZoneOffset.UTC), Map.of("PATH", PATH));
        Path ready = fifo("ready");
        String script = """
                sleep 60 & echo $! >> pids
                sh -c 'sleep 60 & echo $! >> pids; echo $$ >> pids; echo ready > ready; wait' &
                wait
                """;
        ProcessSpec spec = spec(script, LONG);
        Finish finish = started(runner, spec);
        assertThat(awaitSignal(ready)).isEqualTo("ready");

        assertThat(runner.running()).containsExactly(new RunningProcess(spec.id(), finish.pid, script, now));
        assertThat(runner.stop(spec.id())).isTrue();

        ProcessResult r = finish.await();
        assertThat(r.status()).isEqualTo(ProcessEnd.KILLED);
        assertThat(r.exitCode()).isNull();
        assertThat(r.reason()).isEqualTo("stopped by process_stop");
        assertThat(r.duration()).isEqualTo(Duration.ZERO);
        List<Long> tree = new ArrayList<>(pids("pids"));
        assertThat(tree).hasSize(3);
        tree.add(finish.pid);
        assertAllDead(tree);
        assertThat(runner.running()).isEmpty();
        assertThat(runner.stop(spec.id())).as("nothing left to stop").isFalse();
    }

    @Test
    void stopAllKillsEveryTreeWithTheGivenReason() throws Exception {
        ProcessRunner runner = runner(4, 8192);
        List<Finish> finishes = new ArrayList<>();
        for (String name : List.of("a", "b")) {
            Path ready = fifo("ready-" + name);
            String script = "sh -c 'sleep 60 & echo $! >> pids-" + name + "; echo $$ >> pids-" + name
                    + "; echo ready > ready-" + name + "; wait' & wait";
            finishes.add(started(runner, spec(script, LONG)));
            assertThat(awaitSignal(ready)).isEqualTo("ready");
        }

        assertThat(runner.stopAll("halt: every running process tree is killed")).isEqualTo(2);

        for (Finish finish : finishes) {
            ProcessResult r = finish.await();
            assertThat(r.status()).isEqualTo(ProcessEnd.KILLED);
            assertThat(r.reason()).isEqualTo("halt: every running process tree is killed");
        }
        List<Long> all = new ArrayList<>(pids("pids-a"));
        all.addAll(pids("pids-b"));
        assertThat(all).hasSize(4);
        finishes.forEach(f -> all.add(f.pid));
        assertAllDead(all);
        assertThat(runner.running()).isEmpty();
    }

    @Test
    void stopAllReturnsOnlyOnceEveryStoppedProcessHasBeenReported() throws Exception {
        ProcessRunner runner = runner(4, 8192);
        Path ready = fifo("ready");
        Finish finish = started(runner, spec("echo ready > ready; sleep 60", LONG));
        assertThat(awaitSignal(ready)).isEqualTo("ready");

        assertThat(runner.stopAll("stopped because the agent exited")).isEqualTo(1);

        // no waiting here: a caller on its way out writes the results right after stopAll returns
        assertThat(finish.result).as("reported before stopAll returned").isDone();
        assertThat(finish.await().status()).isEqualTo(ProcessEnd.KILLED);
        assertThat(finish.await().reason()).isEqualTo("stopped because the agent exited");
    }

    @Test
    void aMissingWorkingDirectoryFailsToStartWithAClearReason() throws Exception {
        ProcessRunner runner = runner(4, 8192);
        Path missing = dir.resolve("missing");
        Finish neverCalled = new Finish();

        StartResult start = runner.start(new ProcessSpec(7, "echo hi", missing, LONG), neverCalled);

        assertThat(start).isInstanceOf(StartResult.FailedToStart.class);
        ProcessResult r = ((StartResult.FailedToStart) start).result();
        assertThat(r.status()).isEqualTo(ProcessEnd.FAILED_TO_START);
        assertThat(r.id()).isEqualTo(7);
        assertThat(r.reason()).isEqualTo("working directory " + missing + " does not exist");
        assertThat(runner.running()).isEmpty();

        ProcessResult after = started(runner, spec("echo after", LONG)).await();
        assertThat(after.output()).isEqualTo("after\n");
        assertThat(neverCalled.calls).as("a start that failed never reports").hasValue(0);
    }

    @Test
    void aWorkingDirectoryThatIsAFileFailsToStart() throws Exception {
        Path file = Files.writeString(dir.resolve("file.txt"), "x");

        StartResult start = runner(4, 8192).start(new ProcessSpec(8, "echo hi", file, LONG), r -> fail("reported"));

        assertThat(start).isEqualTo(new StartResult.FailedToStart(new ProcessResult(8, ProcessEnd.FAILED_TO_START,
                null, "", Duration.ZERO, "working directory " + file + " is not a directory")));
    }
}
