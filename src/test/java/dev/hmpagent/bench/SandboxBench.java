package dev.hmpagent.bench;

import dev.hmpagent.policy.ControlSurface;
import dev.hmpagent.process.Launcher;
import dev.hmpagent.process.ProcessResult;
import dev.hmpagent.process.ProcessRunner;
import dev.hmpagent.process.ProcessSpec;
import dev.hmpagent.process.ProcessEnd;
import dev.hmpagent.process.Sandbox;
import dev.hmpagent.process.SandboxProbe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code scripts/bench sandbox}: what a sandbox adds to one command. The same trivial command ({@code :}, so only the
 * start and the end are timed) runs RUNS times through the real process runner each way, the ways interleaved so
 * machine load falls on all alike: plain {@code /bin/sh -c}; the fallback ({@code prlimit --fsize} then the shell);
 * inside bubblewrap with the agent's options. Each figure is the wall time from {@code start} to the result, in ms;
 * the bench prints the median, the 90th percentile and the median added by the sandbox over each other way.
 *
 * <p>Run: {@code java -cp target/hmp-agent.jar:target/test-classes dev.hmpagent.bench.SandboxBench [RUNS] [DIR]}.
 */
public final class SandboxBench {
    private SandboxBench() { }

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        Path dir = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("sandbox-bench");
        Path root = Files.createDirectories(dir.resolve("workspace"));
        Map<String, String> env = Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"),
                "HOME", dir.resolve("home").toString());
        SandboxProbe.Result probe = SandboxProbe.probe(env);
        if (!(probe instanceof SandboxProbe.Result.Works works)) {
            System.out.println("sandbox bench: no sandbox here: " + ((SandboxProbe.Result.Fails) probe).reason());
            System.exit(1);
            return;
        }
        Sandbox sandbox = Sandbox.plan(works.host(), new Sandbox.Limits(false, 64L << 20, 128), List.of(root),
                ControlSurface.forDatabase(dir.resolve("agent.db"), List.of()), dir.resolve("home"));
        Sandbox.SandboxHost h = works.host();
        Sandbox noCgroup = Sandbox.plan(new Sandbox.SandboxHost(h.bwrap(), h.version(), h.disableUserns(), h.prlimit(),
                Optional.empty(), h.root(), h.drop()), new Sandbox.Limits(false, 64L << 20, 128), List.of(root),
                ControlSurface.forDatabase(dir.resolve("agent.db"), List.of()), dir.resolve("home"));
        List<Way> ways = List.of(
                new Way("plain /bin/sh -c", runner(env, Launcher.UNCONFINED)),
                new Way("fallback (prlimit, then sh)", runner(env, Launcher.plain(64L << 20,
                        Optional.of(Path.of("/usr/bin/prlimit")).filter(Files::isExecutable)))),
                new Way("bubblewrap sandbox", runner(env, sandbox)),
                new Way("bubblewrap, no cgroup", runner(env, noCgroup)));
        System.out.println("sandbox bench: " + sandbox.describe());
        for (int warm = 0; warm < 10; warm++) for (Way w : ways) time(w.runner, root, warm);
        long id = 100;
        for (int i = 0; i < runs; i++) {
            for (Way w : ways) w.ms.add(time(w.runner, root, id++));
        }
        for (Way w : ways) {
            System.out.printf(Locale.ROOT, "%-30s median %6.2f ms   p90 %6.2f ms   (%d runs)%n", w.name, pct(w.ms, 50),
                    pct(w.ms, 90), runs);
        }
        double box = pct(ways.get(2).ms, 50);
        System.out.printf(Locale.ROOT, "added by the sandbox (median): %+.2f ms over plain, %+.2f ms over the fallback;"
                + " ratio %.2f / %.2f%n", box - pct(ways.get(0).ms, 50), box - pct(ways.get(1).ms, 50),
                box / pct(ways.get(0).ms, 50), box / pct(ways.get(1).ms, 50));
        for (Way w : ways) w.runner.stopAll("bench over");
        System.exit(0);
    }

    private record Way(String name, ProcessRunner runner, List<Double> ms) {
        Way(String name, ProcessRunner runner) {
            this(name, runner, new ArrayList<>());
        }
    }

    private static ProcessRunner runner(Map<String, String> env, Launcher launcher) {
        return new ProcessRunner(4, 4096, Clock.systemUTC(), env, launcher);
    }

    private static double time(ProcessRunner runner, Path root, long id) throws Exception {
        CompletableFuture<ProcessResult> done = new CompletableFuture<>();
        long t0 = System.nanoTime();
        runner.start(new ProcessSpec(id, ":", root, Duration.ofSeconds(30)), done::complete);
        ProcessResult r = done.get(30, TimeUnit.SECONDS);
        long t1 = System.nanoTime();
        if (r.status() != ProcessEnd.OK) throw new IllegalStateException("the command failed: " + r.reason());
        return (t1 - t0) / 1e6;
    }

    private static double pct(List<Double> xs, int p) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(Double::compare);
        if (p == 50 && s.size() % 2 == 0) return (s.get(s.size() / 2 - 1) + s.get(s.size() / 2)) / 2;
        return s.get(Math.min(s.size() - 1, (int) Math.ceil(p / 100.0 * s.size()) - 1));
    }
}
