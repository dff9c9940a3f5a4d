package dev.hmpagent.process;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The child agents this one spawned (issue 37), each an {@code agent run} in a JVM of its own, supervised: a child
 * that dies is started again after a back-off (1 s, 2 s, 4 s … at most 60 s; a child that ran at least that long
 * starts again from 1 s), at most {@code max} children are kept, and {@link #stopAll()} ends them all (SIGTERM, then
 * a kill after {@link #GRACE}). What a child is (its command line, environment and folder) is the caller's; this room
 * only starts, watches and ends it.
 */
public final class AgentChildren implements AutoCloseable {
    public static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    public static final Duration MAX_BACKOFF = Duration.ofSeconds(60);
    /** How long a child has to end after SIGTERM before it is killed. */
    public static final Duration GRACE = Duration.ofSeconds(5);

    /** One child: its name, command line, whole environment, working directory and the file its output goes to. */
    public record Spec(String name, List<String> argv, Map<String, String> env, Path dir, Path log) {
        public Spec {
            Objects.requireNonNull(name, "name");
            argv = List.copyOf(argv);
            env = Map.copyOf(env);
            Objects.requireNonNull(dir, "dir");
            Objects.requireNonNull(log, "log");
        }
    }

    /** Runs a task after a delay (a daemon thread; a test's runs them when it says). */
    @FunctionalInterface
    public interface Scheduler {
        void after(Duration delay, Runnable task);
    }

    /** Starts a child's process (the real one: {@link #REAL}; a test may start something smaller). */
    @FunctionalInterface
    public interface Starter {
        Process start(Spec spec) throws IOException;
    }

    /** Where a child is. */
    public enum Phase { RUNNING, RESTARTING, STOPPED }

    /** A child as {@code agent status --tree} shows it. */
    public record State(String name, Phase phase, long pid, int restarts, String line) { }

    /** The child's command line in its folder, its output appended to its log, its environment exactly {@code env}. */
    public static final Starter REAL = spec -> {
        ProcessBuilder pb = new ProcessBuilder(spec.argv()).directory(spec.dir().toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(spec.log().toFile()));
        pb.environment().clear();
        pb.environment().putAll(spec.env());
        return pb.start();
    };

    private final int max;
    private final Scheduler scheduler;
    private final Starter starter;
    private final LongSupplier nanos;
    private final Consumer<String> say;
    /** Guarded by this. */
    private final Map<String, Child> children = new LinkedHashMap<>();
    private boolean closing;

    /** One child's supervision; its fields are guarded by the {@link AgentChildren} that holds it. */
    private static final class Child {
        final Spec spec;
        Process process;
        long startedAt;
        int failures;
        int restarts;
        Phase phase = Phase.RUNNING;
        String line = "";

        Child(Spec spec) {
            this.spec = spec;
        }
    }

    /**
     * @param max       the most children at once ({@code a2a.max_children})
     * @param scheduler runs a restart after its back-off
     * @param starter   starts a child's process
     * @param nanos     a monotonic clock (how long a child ran)
     * @param say       one line for a person when a child dies or cannot start
     */
    public AgentChildren(int max, Scheduler scheduler, Starter starter, LongSupplier nanos, Consumer<String> say) {
        this.max = max;
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.starter = Objects.requireNonNull(starter, "starter");
        this.nanos = Objects.requireNonNull(nanos, "nanos");
        this.say = Objects.requireNonNull(say, "say");
    }

    /** The real supervisor: restarts on a daemon thread, {@link #REAL} processes, the system's monotonic clock. */
    public static AgentChildren real(int max, Consumer<String> say) {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "children");
            t.setDaemon(true);
            return t;
        });
        return new AgentChildren(max, (delay, task) -> timer.schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS),
                REAL, System::nanoTime, say);
    }

    /**
     * The JVM flags of a long-running agent ({@code agent run}, as scripts/agent starts it too): C1 only, the serial
     * collector with a heap that starts at 8 MB and gives back what it does not use, and the C heap's free memory
     * given back to the system every 5 s ({@code TrimNativeHeapInterval}, JDK 17.0.9 and later; an older JVM ignores
     * it). An idle {@code agent run} held ~95 MB RSS with the defaults (G1 commits its heap regions and ~50 MB of its
     * own tables), 73 MB with these and no TLS set up before a call needs it (issue 37, BENCHMARKS.md): ten children
     * on one machine is the mesh's case.
     */
    public static final List<String> LONG_RUN_FLAGS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xms8m",
            "-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=30", "-XX:+IgnoreUnrecognizedVMOptions",
            "-XX:TrimNativeHeapInterval=5000");

    /**
     * The Java command line that runs this program with {@code args}: the same {@code java} as this process (or
     * {@code java.home}'s), {@link #LONG_RUN_FLAGS}, this process's class path, the program's entry point.
     */
    public static List<String> agentCommand(List<String> args) {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> argv = new ArrayList<>(List.of(java));
        argv.addAll(LONG_RUN_FLAGS);
        argv.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.hmpagent.cli.Main"));
        argv.addAll(args);
        return List.copyOf(argv);
    }

    /** The back-off before the {@code failures}-th restart in a row: 1 s doubled each time, at most 60 s. */
    public static Duration backoff(int failures) {
        Duration d = FIRST_BACKOFF.multipliedBy(1L << Math.min(Math.max(failures, 1) - 1, 6));
        return d.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : d;
    }

    /** Starts {@code spec}'s child; empty when it started, else the one line saying why not. */
    public synchronized Optional<String> start(Spec spec) {
        if (closing) return Optional.of("the agent is stopping; no child is started");
        if (children.containsKey(spec.name())) {
            return Optional.of("a child called " + spec.name() + " already runs; choose another name");
        }
        if (children.size() >= max) {
            return Optional.of("already " + children.size() + " children, the most a2a.max_children allows (" + max
                    + "); raise it in agent.toml or let a child go");
        }
        Child child = new Child(spec);
        try {
            launch(child);
        } catch (IOException e) {
            return Optional.of("the child " + spec.name() + " could not start: " + e.getMessage());
        }
        children.put(spec.name(), child);
        return Optional.empty();
    }

    /** Each child, in the order they were spawned. */
    public synchronized List<State> states() {
        return children.values().stream().map(c -> new State(c.spec.name(), c.phase,
                c.process == null ? 0 : c.process.pid(), c.restarts, c.line)).toList();
    }

    private void launch(Child child) throws IOException {
        Process p = starter.start(child.spec);
        child.process = p;
        child.startedAt = nanos.getAsLong();
        child.phase = Phase.RUNNING;
        p.onExit().thenAccept(ended -> exited(child, ended));
    }

    private synchronized void exited(Child child, Process ended) {
        if (closing || child.process != ended || child.phase != Phase.RUNNING) return;
        if (nanos.getAsLong() - child.startedAt >= MAX_BACKOFF.toNanos()) child.failures = 0;
        child.failures++;
        restartLater(child, "exited with code " + ended.exitValue());
    }

    private void restartLater(Child child, String what) {
        Duration delay = backoff(child.failures);
        child.phase = Phase.RESTARTING;
        child.line = what + "; starting again in " + delay.toSeconds() + " s";
        say.accept("child " + child.spec.name() + " " + child.line);
        scheduler.after(delay, () -> restart(child));
    }

    private synchronized void restart(Child child) {
        if (closing || child.phase != Phase.RESTARTING) return;
        child.restarts++;
        try {
            launch(child);
            child.line = "";
        } catch (IOException e) {
            child.failures++;
            restartLater(child, "could not start (" + e.getMessage() + ")");
        }
    }

    /** Ends every child: SIGTERM to each, then a kill of what still runs after {@link #GRACE}; none restarts. */
    public void stopAll() {
        stopAll(GRACE);
    }

    /** As {@link #stopAll()}, the kill after {@code grace}; returns once every child is gone. */
    public void stopAll(Duration grace) {
        List<Process> running = new ArrayList<>();
        synchronized (this) {
            closing = true;
            for (Child c : children.values()) {
                c.phase = Phase.STOPPED;
                c.line = "stopped with the parent";
                if (c.process != null && c.process.isAlive()) running.add(c.process);
            }
        }
        running.forEach(Process::destroy);
        long deadline = System.nanoTime() + grace.toNanos();
        for (Process p : running) {
            try {
                p.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException | ExecutionException e) {
                kill(p);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                kill(p);
            }
        }
    }

    /** A kill of {@code p} and what it started, waited for (a kill cannot be ignored). */
    private static void kill(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        try {
            p.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stopAll();
    }
}
