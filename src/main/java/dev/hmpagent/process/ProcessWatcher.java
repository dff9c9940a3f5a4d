package dev.hmpagent.process;

import dev.hmpagent.process.ChildProcess.Ending;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.LongConsumer;

/**
 * The end of each process the {@link ProcessRunner} started. Its reader keeps the tail of the output; its watcher
 * waits for the exit or the timeout, kills what is left of the tree, drains the output and builds the one
 * {@link ProcessResult}. The runner keeps the slots and the stops; this class keeps what happens once a process runs,
 * so each reads on its own.
 */
final class ProcessWatcher {
    /** How long the output may stay open after the tree died: a process outside the tree may hold it. */
    static final Duration OUTPUT_DRAIN = Duration.ofSeconds(2);
    /** How long a killed process may take to die before the result says it did not. */
    static final Duration DEATH_WAIT = Duration.ofSeconds(5);

    private final Clock clock;
    private final ProcessTreeKiller killer;
    private final Launcher launcher;
    /** Frees the runner's slot of a process id. */
    private final LongConsumer release;

    ProcessWatcher(Clock clock, ProcessTreeKiller killer, Launcher launcher, LongConsumer release) {
        this.clock = clock;
        this.killer = killer;
        this.launcher = launcher;
        this.release = release;
    }

    /** The reader of one process: its combined output into the tail until the stream ends or is closed. */
    static void readOutput(ChildProcess child) {
        byte[] buffer = new byte[8192];
        try (InputStream in = child.process.getInputStream()) {
            int n;
            while ((n = in.read(buffer)) != -1) {
                child.output.append(buffer, 0, n);
            }
        } catch (IOException e) {
            // the stream was closed under us: what was read is kept
        } finally {
            child.outputClosed.countDown();
        }
    }

    /** The loop boundary of one process: whatever happens, it is reported once and its slot is freed. */
    void watch(ChildProcess child) {
        ProcessResult result;
        try {
            result = awaitEnd(child);
        } catch (RuntimeException e) {   // the watcher's boundary: whatever broke, the tree is killed and the row ends
            child.ending.compareAndSet(null, new Ending(ProcessEnd.KILLED, "the process runner failed"));
            killQuietly(child);
            result = new ProcessResult(child.spec.id(), ProcessEnd.KILLED, null, child.output.render(), elapsed(child),
                    "the process runner failed while watching it (" + ProcessRunner.oneLine(e.toString())
                            + "); its process tree was killed");
        } finally {
            release.accept(child.spec.id());
        }
        try {
            child.onFinish.accept(result);
        } finally {
            child.reported.countDown();
            launcher.ended(child.spec);   // tidying up (a sandbox's cgroup) does not delay the result
        }
    }

    private ProcessResult awaitEnd(ChildProcess child) {
        boolean exited = Waits.waitFor(child.process, child.spec.timeout());
        Ending timedOut = new Ending(ProcessEnd.TIMEOUT,
                "timed out after " + human(child.spec.timeout()) + "; its process tree was killed");
        int killed = 0;
        if (exited ? child.ending.compareAndSet(null, ChildProcess.EXITED) : child.ending.compareAndSet(null, timedOut)) {
            try {
                killed = killer.kill(List.of(child.tree()));
            } finally {
                child.treeDead.complete(null);
            }
        } else {
            Waits.await(child.treeDead, DEATH_WAIT.plus(ProcessRunner.KILL_GRACE.multipliedBy(6)));
        }
        boolean dead = Waits.waitFor(child.process, DEATH_WAIT);
        boolean drained = Waits.await(child.outputClosed, OUTPUT_DRAIN);
        String output = child.output.render();
        if (!drained) {
            output += "\n[output still open after the process ended (a process outside its tree holds it);"
                    + " what came after is not shown]";
        }
        Duration duration = elapsed(child);
        Ending ending = child.ending.get();
        if (ending != ChildProcess.EXITED) {
            String reason = dead ? ending.reason() : ending.reason() + " (the process did not die)";
            return new ProcessResult(child.spec.id(), ending.status(), null, launcher.shown(output), duration, reason);
        }
        return exited(child, child.process.exitValue(), output, duration, killed);
    }

    /**
     * The result of a process that exited by itself with {@code code}, having left {@code killed} processes for the
     * runner to kill; the launcher says what it counted inside, and whether it failed before the command ran.
     */
    private ProcessResult exited(ChildProcess child, int code, String output, Duration duration, int killed) {
        Launcher.Exit exit = launcher.exited(code, output);
        if (exit.failedBefore().isPresent()) {
            return new ProcessResult(child.spec.id(), ProcessEnd.SANDBOX_FAILED, null, exit.output(), duration,
                    exit.failedBefore().get());
        }
        // counted inside by the launcher: what the host sees of a sandbox races the kernel's end of it
        int left = exit.leftovers().orElse(killed);
        String reason = "exit " + code + (left == 0 ? ""
                : "; " + left + " background process" + (left == 1 ? "" : "es") + " it left running killed");
        return new ProcessResult(child.spec.id(), code == 0 ? ProcessEnd.OK : ProcessEnd.ERROR, code,
                exit.output(), duration, reason);
    }

    /** Kills the child's tree when something already failed: the failure is what gets reported, not the kill's. */
    void killQuietly(ChildProcess child) {
        try {
            killer.kill(List.of(child.tree()));
        } catch (RuntimeException ignored) {
            // already failing; the report says the tree was meant to be killed
        } finally {
            child.treeDead.complete(null);
        }
    }

    private Duration elapsed(ChildProcess child) {
        Duration d = Duration.between(child.startedAt, clock.instant());
        return d.isNegative() ? Duration.ZERO : d;
    }

    static String human(Duration d) {
        long ms = d.toMillis();
        if (ms < 1000) {
            return ms + " ms";
        }
        if (ms % 1000 == 0) {
            return ms / 1000 + " s";
        }
        return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }
}
