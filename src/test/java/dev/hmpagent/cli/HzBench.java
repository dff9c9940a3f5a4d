package dev.hmpagent.cli;

import dev.hmpagent.runtime.TestWiring;

import dev.hmpagent.runtime.Launch;
import dev.hmpagent.runtime.AgentRuntime;
import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.ConfigLoader;
import dev.hmpagent.config.ConfigSources;
import dev.hmpagent.cycle.FixedRatePacer;
import dev.hmpagent.cycle.TickLoop;
import dev.hmpagent.cycle.TimeSource;
import java.time.Duration;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.llm.Usage;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.Store;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code scripts/bench hz}: the headless loop measured on this machine (not a test: no assertions,
 * real time). Prints period error, drift, lateness, idle CPU, RSS over many ticks, and halt latency.
 * Args: seconds of the 10 Hz run (default 60), ticks of the RSS run (default 10000), halts (default 50).
 */
public final class HzBench {
    private HzBench() { }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        int rssTicks = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int halts = args.length > 2 ? Integer.parseInt(args[2]) : 50;
        Path dir = Files.createTempDirectory("hz-bench");
        if (seconds > 0) clock(dir.resolve("clock.db"), 10, seconds);
        idleCpu(dir.resolve("idle.db"), 10);
        if (rssTicks > 0) rss(dir.resolve("rss.db"), 50, rssTicks);
        if (halts > 0) halt(dir.resolve("halt.db"), halts);
    }

    /** An LLM that answers at once, or (slow) blocks until cancelled. */
    static final class FakeLlm implements LlmClient {
        final boolean slow;
        final AtomicLong calls = new AtomicLong();
        volatile CountDownLatch inFlight = new CountDownLatch(1);
        volatile CountDownLatch cancelled = new CountDownLatch(1);
        final AtomicLong cancelledAt = new AtomicLong();

        FakeLlm(boolean slow) {
            this.slow = slow;
        }

        @Override
        public Completion complete(LlmRequest request, StreamListener listener, dev.hmpagent.llm.CallCancel cancel) {
            calls.incrementAndGet();
            cancel.onCancel(this::heardCancel);
            if (slow) {
                inFlight.countDown();
                try {
                    cancelled.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return new Completion("cut", new Usage(10, 1, true), "fake", "", true);
            }
            return new Completion("ok", new Usage(100, 2, false), "fake", "stop", false);
        }

        private void heardCancel() {
            cancelledAt.set(System.nanoTime());
            cancelled.countDown();
        }

        @Override
        public String endpoint() { return "http://fake/v1"; }

        @Override
        public String model() { return "fake"; }
    }

    static AgentConfig config(Path db) {
        return ConfigLoader.load(ConfigSources.standard(Map.of("agent.db", db.toString()), Map.of("agent.db", "bench"),
                Map.of(), Optional.empty())).config();
    }

    static Launch launch(FakeLlm llm) {
        return new Launch(Map.of(), () -> { throw new AssertionError("no terminal"); }, Clock.systemUTC(), false,
                section -> llm);
    }

    /** Frame timing at {@code hz} for {@code seconds}, a note every 10 s; frame starts taken on the tick thread. */
    static void clock(Path db, double hz, int seconds) throws Exception {
        FakeLlm llm = new FakeLlm(false);
        long frames = Math.round(seconds * hz);
        long[] starts = new long[(int) frames];
        int[] n = {0};
        try (Store store = Store.open(db, Clock.systemUTC()); Store feeder = Store.open(db, Clock.systemUTC())) {
            TickLoop loop = new TickLoop(TestWiring.cycle(config(db), store, llm, EventSink.DISCARD, Clock.systemUTC()),
                    new FixedRatePacer(hz, FixedRatePacer.Overrun.SKIP, 10), TimeSource.system(), Duration.ZERO, () -> {
                        if (n[0] < starts.length) starts[n[0]++] = System.nanoTime();
                        return true;
                    }, EventSink.DISCARD);
            loop.limitFrames(frames);
            loop.start();
            NotesDao notes = new NotesDao(feeder);
            while (loop.ended() == null) {
                notes.add("ping", "cli", 0, null);
                Thread.sleep(10_000);
            }
            long period = Math.round(1e9 / hz);
            int seen = n[0];
            List<Long> late = new ArrayList<>();
            for (int i = 0; i < seen; i++) late.add(starts[i] - (starts[0] + i * period));
            Collections.sort(late);
            long drift = starts[seen - 1] - starts[0] - (long) (seen - 1) * period;
            double meanErr = (double) (starts[seen - 1] - starts[0]) / Math.max(1, seen - 1) - period;
            System.out.printf(Locale.ROOT, "clock   %.0f Hz for %d s: %d frames, %d LLM calls, mean period error %.4f ms,"
                            + " total drift %.2f ms, lateness vs start + n*period p50 %.2f ms p99 %.2f ms max %.2f ms%n",
                    hz, seconds, seen, llm.calls.get(), meanErr / 1e6, drift / 1e6, late.get(seen / 2) / 1e6,
                    late.get((int) (seen * 0.99)) / 1e6, late.get(seen - 1) / 1e6);
        }
    }

    /** CPU of the idle loop alone: no sampler, no notes, 20 s. */
    static void idleCpu(Path db, double hz) throws Exception {
        FakeLlm llm = new FakeLlm(false);
        FixedRatePacer pacer = new FixedRatePacer(hz, FixedRatePacer.Overrun.SKIP, 10);
        try (AgentRuntime rt = AgentRuntime.start(config(db), launch(llm), EventSink.DISCARD, pacer, false)) {
            var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            var threads = ManagementFactory.getThreadMXBean();
            rt.startThinking(EventSink.DISCARD);
            Thread.sleep(2_000);
            Map<String, Long> before = threadCpu(threads);
            long p0 = os.getProcessCpuTime();
            long w0 = System.nanoTime();
            Thread.sleep(20_000);
            long p1 = os.getProcessCpuTime();
            long w1 = System.nanoTime();
            Map<String, Long> after = threadCpu(threads);
            StringBuilder per = new StringBuilder();
            for (String name : List.of("tick", "control", "heartbeat", "spool")) {
                per.append(String.format(Locale.ROOT, " %s %.2f %%", name,
                        100.0 * (after.getOrDefault(name, 0L) - before.getOrDefault(name, 0L)) / (w1 - w0)));
            }
            System.out.printf(Locale.ROOT, "idle    %.0f Hz, nothing to do, 20 s: whole process %.2f %% of a core; by thread:%s;"
                    + " %d no-op ticks%n", hz, 100.0 * (p1 - p0) / (w1 - w0), per, rt.loop().stats().noOpTicks());
        }
    }

    /** RSS over {@code ticks} frames at {@code hz}, a note every 10th frame (so one in ten calls the LLM). */
    static void rss(Path db, double hz, int ticks) throws Exception {
        FakeLlm llm = new FakeLlm(false);
        FixedRatePacer pacer = new FixedRatePacer(hz, FixedRatePacer.Overrun.SKIP, 10);
        try (AgentRuntime rt = AgentRuntime.start(config(db), launch(llm), EventSink.DISCARD, pacer, false);
             Store feeder = Store.open(db, Clock.systemUTC())) {
            TickLoop loop = rt.loop();
            loop.limitFrames(ticks);
            rt.startThinking(EventSink.DISCARD);
            NotesDao notes = new NotesDao(feeder);
            List<Long> samples = new ArrayList<>();
            List<Long> heap = new ArrayList<>();
            long lastNoteAtFrame = -10;
            while (loop.ended() == null) {
                long frame = loop.stats().noOpTicks() + llm.calls.get();
                if (frame - lastNoteAtFrame >= 10) {
                    notes.add("note at frame " + frame, "cli", 0, null);
                    lastNoteAtFrame = frame;
                }
                if (samples.size() < frame / 1000 + 1) {
                    System.gc();   // what is still referenced, not what the collector has not come for yet
                    samples.add(rssKb());
                    heap.add(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1024);
                }
                Thread.sleep(1000 / (long) hz);
            }
            System.gc();
            samples.add(rssKb());
            heap.add(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1024);
            System.out.printf(Locale.ROOT, "rss     %d frames at %.0f Hz, %d LLM calls, max heap %d MB: RSS every 1000 frames"
                            + " (MB): %s; first->last %+.1f MB, max-min %.1f MB%n", ticks, hz, llm.calls.get(),
                    Runtime.getRuntime().maxMemory() / (1024 * 1024),
                    samples.stream().map(k -> String.format(Locale.ROOT, "%.1f", k / 1024.0)).toList(),
                    (samples.get(samples.size() - 1) - samples.get(0)) / 1024.0,
                    (Collections.max(samples) - Collections.min(samples)) / 1024.0);
            System.out.printf(Locale.ROOT, "heap    used after GC every 1000 frames (MB): %s; first->last %+.1f MB%n",
                    heap.stream().map(k -> String.format(Locale.ROOT, "%.1f", k / 1024.0)).toList(),
                    (heap.get(heap.size() - 1) - heap.get(0)) / 1024.0);
        }
    }

    /** From the commit of a halt's control request to the LLM call in flight being cancelled. */
    static void halt(Path db, int halts) throws Exception {
        List<Long> latencies = new ArrayList<>();
        for (int i = 0; i < halts; i++) {
            FakeLlm llm = new FakeLlm(true);
            FixedRatePacer pacer = new FixedRatePacer(10, FixedRatePacer.Overrun.SKIP, 10);
            try (Store other = Store.open(db, Clock.systemUTC())) {
                new SafetyControl(other).unlock("bench", Requester.thisProcess());
                new NotesDao(other).add("think slowly " + i, "cli", 0, null);
            }
            try (AgentRuntime rt = AgentRuntime.start(config(db), launch(llm), EventSink.DISCARD, pacer, false);
                 Store other = Store.open(db, Clock.systemUTC())) {
                rt.startThinking(EventSink.DISCARD);
                llm.inFlight.await();
                new SafetyControl(other).halt("bench", Requester.thisProcess());
                long committed = System.nanoTime();
                if (!llm.cancelled.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("halt " + i + ": the call in flight was not cancelled within 10 s");
                }
                latencies.add(llm.cancelledAt.get() - committed);
            }
        }
        Collections.sort(latencies);
        System.out.printf(Locale.ROOT, "halt    %d halts during a slow call: commit of the request -> call cancelled: "
                        + "p50 %.1f ms, p99 %.1f ms, max %.1f ms%n", halts, latencies.get(halts / 2) / 1e6,
                latencies.get(Math.min(halts - 1, (int) (halts * 0.99))) / 1e6, latencies.get(halts - 1) / 1e6);
    }

    static Map<String, Long> threadCpu(java.lang.management.ThreadMXBean threads) {
        Map<String, Long> cpu = new java.util.HashMap<>();
        for (long id : threads.getAllThreadIds()) {
            var info = threads.getThreadInfo(id);
            if (info != null) cpu.merge(info.getThreadName(), threads.getThreadCpuTime(id), Long::sum);
        }
        return cpu;
    }

    static long rssKb() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("\\D+", ""));
        }
        return -1;
    }
}
