package dev.hmpagent.process;

import dev.hmpagent.process.ChildProcess.Ending;
import dev.hmpagent.text.Text;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;

/**
 * Runs shell command lines as child processes without blocking the caller: at most
 * {@code maxProcesses} at once, each with an allow-listed environment ({@link ChildEnvironment}), stdin from {@code /dev/null},
 * its combined output kept as a bounded tail, and a timeout that kills its whole process tree.
 *
 * <p>Every process that {@link #start} reports as {@link StartResult.Started} ends with exactly one
 * call of its onFinish, on a runner thread, possibly before {@code start} has returned: hand the
 * result to your own thread. A process's background children end with it: when the command exits,
 * whatever it left running (found by the environment marker) is killed too.
 */
public final class ProcessRunner {
    /** The variable every child gets, {@code <runner token>-<spec id>}, to find its escaped grandchildren. */
    public static final String MARKER_VARIABLE = "HMP_AGENT_PROC";

    static final String SHELL = "/bin/sh";
    static final Duration KILL_GRACE = Duration.ofSeconds(1);

    private final int maxProcesses;
    private final int outputCapBytes;
    private final Clock clock;
    private final ThreadFactory threads;
    private final String token;
    private final ProcessTreeKiller killer;
    private final Launcher launcher;
    private final ProcessStarter starter;
    private final ProcessWatcher watcher;

    private final Object lock = new Object();
    private final Map<Long, ChildProcess> children = new HashMap<>(); // guarded by lock

    /**
     * @param maxProcesses    how many processes may run at once ({@code shell.max_processes})
     * @param outputCapBytes  how many bytes of output tail a result keeps
     * @param clock           for start times and durations
     * @param baseEnvironment the environment whose basics (PATH, HOME, LANG…) are passed on, normally {@code System.getenv()}
     * @param threads         makes the two threads each process uses (a watcher and an output reader)
     */
    public ProcessRunner(
            int maxProcesses, int outputCapBytes, Clock clock, Map<String, String> baseEnvironment,
            ThreadFactory threads) {
        this(maxProcesses, outputCapBytes, clock, baseEnvironment, threads, Launcher.UNCONFINED);
    }

    /**
     * As the constructor above, each command started by {@code launcher} ({@code /bin/sh -c} as it is, or inside
     * a {@link Sandbox}).
     */
    public ProcessRunner(
            int maxProcesses, int outputCapBytes, Clock clock, Map<String, String> baseEnvironment,
            ThreadFactory threads, Launcher launcher) {
        this(maxProcesses, outputCapBytes, clock,
                ChildEnvironment.basics(Objects.requireNonNull(baseEnvironment, "baseEnvironment")), threads, launcher);
    }

    /** As the constructor above, every child with {@code environment} (the allow-list of this run's configuration). */
    public ProcessRunner(
            int maxProcesses, int outputCapBytes, Clock clock, ChildEnvironment environment,
            ThreadFactory threads, Launcher launcher) {
        if (maxProcesses < 1) {
            throw new IllegalArgumentException("maxProcesses must be at least 1, was " + maxProcesses);
        }
        if (outputCapBytes < 1) {
            throw new IllegalArgumentException("outputCapBytes must be at least 1, was " + outputCapBytes);
        }
        this.maxProcesses = maxProcesses;
        this.outputCapBytes = outputCapBytes;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.threads = Objects.requireNonNull(threads, "threads");
        this.token = randomToken();
        this.killer = new ProcessTreeKiller(new ProcFs(Path.of("/proc")), KILL_GRACE);
        this.launcher = Objects.requireNonNull(launcher, "launcher");
        this.starter = new ProcessStarter(launcher, Objects.requireNonNull(environment, "environment").variables());
        this.watcher = new ProcessWatcher(this.clock, killer, launcher, this::release);
    }

    /** As the full constructor, with daemon threads: call {@link #stopAll} before the JVM exits. */
    public ProcessRunner(int maxProcesses, int outputCapBytes, Clock clock, Map<String, String> baseEnvironment) {
        this(maxProcesses, outputCapBytes, clock, baseEnvironment, DAEMONS);
    }

    /** As the full constructor with daemon threads, each command started by {@code launcher}. */
    public ProcessRunner(int maxProcesses, int outputCapBytes, Clock clock, Map<String, String> baseEnvironment,
                         Launcher launcher) {
        this(maxProcesses, outputCapBytes, clock, baseEnvironment, DAEMONS, launcher);
    }

    /** As the full constructor with daemon threads, each command started by {@code launcher} with {@code environment}. */
    public ProcessRunner(int maxProcesses, int outputCapBytes, Clock clock, ChildEnvironment environment,
                         Launcher launcher) {
        this(maxProcesses, outputCapBytes, clock, environment, DAEMONS, launcher);
    }

    private static final ThreadFactory DAEMONS = runnable -> {
        Thread thread = new Thread(runnable);
        thread.setDaemon(true);
        return thread;
    };

    /** What the pid in {@link #running()} is, for a person ("" when it is simply the command's shell). */
    public String pidNote() {
        return launcher.pidNote();
    }

    /**
     * Starts the command and returns at once. {@link StartResult.Refused} at the cap and
     * {@link StartResult.FailedToStart} never call onFinish; {@link StartResult.Started} calls it
     * exactly once.
     *
     * @throws IllegalStateException if a process with the same id is still running
     */
    public StartResult start(ProcessSpec spec, Consumer<ProcessResult> onFinish) {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(onFinish, "onFinish");
        Path cwd = spec.workingDirectory();
        if (!Files.exists(cwd)) {
            return failedToStart(spec, "working directory " + cwd + " does not exist");
        }
        if (!Files.isDirectory(cwd)) {
            return failedToStart(spec, "working directory " + cwd + " is not a directory");
        }
        ChildProcess child;
        synchronized (lock) {
            if (children.containsKey(spec.id())) {
                throw new IllegalStateException("process " + spec.id() + " is already running");
            }
            if (children.size() >= maxProcesses) {
                return new StartResult.Refused(children.size() + " processes already running (shell.max_processes = "
                        + maxProcesses + "); wait for one to finish or stop one with process_stop");
            }
            Instant startedAt = clock.instant();
            Process process;
            try {
                process = starter.start(spec, markerValue(spec.id()));
            } catch (IOException | RuntimeException e) {
                launcher.ended(spec);
                return launcher.confines() ? new StartResult.FailedToStart(new ProcessResult(spec.id(),
                        ProcessEnd.SANDBOX_FAILED, null, "", Duration.ZERO, "the sandbox could not be started ("
                        + oneLine(e.getMessage()) + ")")) : failedToStart(spec, "could not start it: " + oneLine(e.getMessage()));
            }
            child = new ChildProcess(spec, process, startedAt, markerEntry(spec.id()), onFinish,
                    new TailBuffer(outputCapBytes));
            children.put(spec.id(), child);
        }
        return watched(child);
    }

    /** Starts the child's output reader and watcher; if no thread can be made, kills it and says it failed to start. */
    private StartResult watched(ChildProcess child) {
        ProcessSpec spec = child.spec;
        try {
            Thread reader = threads.newThread(() -> ProcessWatcher.readOutput(child));
            reader.setName("hmp-proc-" + spec.id() + "-output");
            Thread watching = threads.newThread(() -> watcher.watch(child));
            watching.setName("hmp-proc-" + spec.id() + "-watch");
            reader.start();
            watching.start();
        } catch (RuntimeException | OutOfMemoryError e) { // OutOfMemoryError: "unable to create native thread"
            child.ending.set(new Ending(ProcessEnd.FAILED_TO_START, "no thread to watch it"));
            watcher.killQuietly(child);
            launcher.ended(spec);
            release(spec.id());
            return failedToStart(spec, "could not make a thread to watch it: " + oneLine(e.toString()));
        }
        return new StartResult.Started(spec.id(), child.process.pid());
    }

    /**
     * Kills the process tree of that id; returns when it is gone (SIGTERM, then SIGKILL after a
     * short grace). Its onFinish then reports {@link ProcessEnd#KILLED}, "stopped by
     * process_stop". False when no process of that id is running (or it is ending already).
     */
    public boolean stop(long id) {
        ChildProcess child;
        synchronized (lock) {
            child = children.get(id);
        }
        return child != null && stop(List.of(child), "stopped by process_stop") == 1;
    }

    /**
     * Kills every running process tree (a halt, shutdown) and returns when they are gone and each has
     * been reported (its onFinish has returned), including trees their watchers were already killing, so
     * a caller on its way out can write every result. Each reports {@link ProcessEnd#KILLED} with this
     * reason, unless it had ended on its own or timed out just before. Returns how many it stopped.
     * A start that races with it is not covered: stop starting new processes first.
     */
    public int stopAll(String reason) {
        Objects.requireNonNull(reason, "reason");
        List<ChildProcess> all;
        synchronized (lock) {
            all = List.copyOf(children.values());
        }
        int stopped = stop(all, reason);
        for (ChildProcess child : all) {
            Waits.await(child.treeDead, ProcessWatcher.DEATH_WAIT.plus(KILL_GRACE.multipliedBy(6)));
        }
        for (ChildProcess child : all) {
            // bounded: its watcher waits for the death (DEATH_WAIT) and the output (OUTPUT_DRAIN), then reports
            Waits.await(child.reported, ProcessWatcher.DEATH_WAIT.plus(ProcessWatcher.OUTPUT_DRAIN).plus(KILL_GRACE));
        }
        return stopped;
    }

    /** The processes running now, by id. */
    public List<RunningProcess> running() {
        synchronized (lock) {
            return children.values().stream()
                    .map(c -> new RunningProcess(c.spec.id(), c.process.pid(), c.spec.command(), c.startedAt))
                    .sorted(Comparator.comparingLong(RunningProcess::id))
                    .toList();
        }
    }

    private int stop(List<ChildProcess> candidates, String reason) {
        List<ChildProcess> claimed = new ArrayList<>();
        for (ChildProcess child : candidates) {
            if (child.ending.compareAndSet(null, new Ending(ProcessEnd.KILLED, reason))) {
                claimed.add(child);
            }
        }
        if (claimed.isEmpty()) {
            return 0;
        }
        try {
            killer.kill(claimed.stream().map(ChildProcess::tree).toList());
        } finally {
            claimed.forEach(c -> c.treeDead.complete(null));
        }
        return claimed.size();
    }

    /** Frees the slot of process {@code id}: its watcher has its result, or it never had a watcher. */
    private void release(long id) {
        synchronized (lock) {
            children.remove(id);
        }
    }

    private StartResult failedToStart(ProcessSpec spec, String reason) {
        return new StartResult.FailedToStart(
                new ProcessResult(spec.id(), ProcessEnd.FAILED_TO_START, null, "", Duration.ZERO, reason));
    }

    private String markerValue(long id) {
        return token + "-" + id;
    }

    private String markerEntry(long id) {
        return MARKER_VARIABLE + "=" + markerValue(id);
    }

    static String randomToken() {
        byte[] bytes = new byte[8];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    static String oneLine(String s) {
        return s == null ? "unknown error" : Text.oneLine(s, Integer.MAX_VALUE);
    }
}
