package dev.hmpagent.bench;

import dev.hmpagent.commands.Approver;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.ConfigLoader;
import dev.hmpagent.config.ConfigSources;
import dev.hmpagent.cycle.Cycle;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code scripts/bench tick}: the agent's own time per tick. The real cycle ({@link Wiring#cycle}, a real SQLite file,
 * the system clock) against a local instant fake LLM whose every reply writes a diary entry and reads the diary
 * ({@code diary_entry}, {@code diary_read}, {@code diary_search}), so every tick calls the LLM (autonomous thinking
 * on). The agent's time of a tick is the time from its {@code agent_log.started_at} to its {@code ended_at} (the file
 * keeps the clock's nanoseconds; {@code duration_ms} rounds to whole milliseconds) less the {@code llm_calls.duration_ms}
 * of its calls: what a tick costs before its row is written. The bench also times the whole {@code tick()} with {@link
 * System#nanoTime()} less the time spent inside the fake LLM (the row's transaction committing, the commands running
 * after it), and the tick thread's CPU time the same way (which a busy machine does not stretch). Once on a fresh file, once on a
 * file with 1,000,000 process_log rows, 100,000 notes (read) and 100,000 diary entries; p50, p90 and the ratio of the
 * p50s.
 *
 * <p>Run from the shaded jar and the test classes: {@code java -cp target/hmp-agent.jar:target/test-classes
 * dev.hmpagent.bench.TickBench [TICKS] [DIR]}.
 */
public final class TickBench {
    private static final int WARM_UP = 200;
    /** The tick thread's own CPU time: what a shared, busy machine stretches the wall clock by, it does not. */
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private TickBench() { }

    /** The figures of one file. */
    private record Figures(double p50, double p90, double nanoP50, double nanoP90, double cpuP50) { }

    public static void main(String[] args) throws Exception {
        int ticks = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        Path dir = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("tick-bench");
        // a first run on a file of its own warms the JIT, so neither measured file pays for compiling the agent (the
        // fresh file, measured first, did: a long-running agent's ticks run compiled code)
        run(dir.resolve("jit-warm-up"), ticks, false);
        Figures fresh = run(dir.resolve("fresh"), ticks, false);
        Figures loaded = run(dir.resolve("loaded"), ticks, true);
        System.out.printf(Locale.ROOT, "the agent's own time per tick (agent_log.ended_at - started_at - llm_calls.duration_ms),"
                + " %d ticks after %d warm-up, an instant fake LLM that writes and reads the diary every tick:%n",
                ticks, WARM_UP);
        print("fresh file", fresh);
        print("1,000,000 process_log rows, 100,000 notes, 100,000 diary entries", loaded);
        System.out.printf(Locale.ROOT, "  ratio loaded/fresh of the p50s: %.2f (from the file), %.2f (nanoTime)%n",
                loaded.p50() / fresh.p50(), loaded.nanoP50() / fresh.nanoP50());
    }

    private static void print(String what, Figures f) {
        System.out.printf(Locale.ROOT, "  %-68s: p50 %.2f ms, p90 %.2f ms (the whole tick by nanoTime: p50 %.2f ms, p90 %.2f ms;"
                + " the thread's CPU: p50 %.2f ms)%n", what, f.p50(), f.p90(), f.nanoP50(), f.nanoP90(), f.cpuP50());
    }

    private static Figures run(Path dir, int ticks, boolean loaded) throws Exception {
        Files.createDirectories(dir);
        Path db = dir.resolve("agent.db");
        Store.open(db, Clock.systemUTC()).close();   // migrated
        if (loaded) fill(db);
        TimedLlm llm = new TimedLlm();
        List<Double> nanos = new ArrayList<>();
        List<Double> cpus = new ArrayList<>();
        long firstMeasured;
        try (Store store = Store.open(db, Clock.systemUTC())) {
            AgentConfig config = config(db);
            Wiring.Tools tools = Wiring.tools(config, Approver.NOBODY, List.of(), Map.of("PATH", System.getenv("PATH")),
                    Clock.systemUTC(), () -> llm);
            Cycle cycle = Wiring.cycle(config, store, llm, EventSink.DISCARD, Clock.systemUTC(),
                    TestWiring.time(Clock.systemUTC()), tools);
            firstMeasured = Long.MAX_VALUE;
            for (int tick = 1; tick <= WARM_UP + ticks; tick++) {
                llm.fake.reply(reply(tick));
                llm.fake.requests.clear();
                long inLlm = llm.nanos;
                long cpuInLlm = llm.cpuNanos;
                long cpu0 = THREADS.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                if (!cycle.tick().worked()) throw new IllegalStateException("tick " + tick + " did not think: " + cycle.status());
                long took = System.nanoTime() - t0 - (llm.nanos - inLlm);
                long cpu = THREADS.getCurrentThreadCpuTime() - cpu0 - (llm.cpuNanos - cpuInLlm);
                if (tick > WARM_UP) {
                    nanos.add(took / 1e6);
                    cpus.add(cpu / 1e6);
                    firstMeasured = Math.min(firstMeasured, cycle.status().lastTickId());
                }
            }
        }
        List<Double> fromFile = fromFile(db, firstMeasured);
        return new Figures(percentile(fromFile, 50), percentile(fromFile, 90), percentile(nanos, 50), percentile(nanos, 90),
                percentile(cpus, 50));
    }

    /**
     * Each measured tick's time from its {@code started_at} to its {@code ended_at} less its LLM calls'
     * {@code duration_ms}, in milliseconds with their fraction: the timestamps keep the clock's nanoseconds, where
     * {@code duration_ms} (whole milliseconds between two truncated instants) reads a 0.8 ms tick as 0 or 1.
     */
    private static List<Double> fromFile(Path db, long firstTick) throws Exception {
        List<Double> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
             PreparedStatement st = c.prepareStatement("SELECT a.started_at, a.ended_at, (SELECT"
                     + " coalesce(sum(l.duration_ms), 0) FROM llm_calls l WHERE l.tick_id = a.tick_id) FROM agent_log a"
                     + " WHERE a.tick_id >= ?")) {
            st.setLong(1, firstTick);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    long nanos = Duration.between(Instant.parse(rs.getString(1)), Instant.parse(rs.getString(2))).toNanos();
                    out.add(nanos / 1e6 - rs.getLong(3));
                }
            }
        }
        return out;
    }

    private static double percentile(List<Double> values, int p) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(Math.min(sorted.size() - 1, sorted.size() * p / 100));
    }

    /** 1,000,000 finished commands (a tenth failed, all seen), 100,000 read notes, 100,000 diary entries. */
    private static void fill(Path db) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            st.execute("PRAGMA journal_mode = WAL");
            st.executeUpdate("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000) "
                    + "INSERT INTO process_log (name, value, status, timestamp, tick_id, result, pain_level, fingerprint,"
                    + " seen_tick, updated_at) SELECT 'shell', '{\"type\":\"shell\",\"args\":{\"command\":\"echo ' || i"
                    + " || '\"}}', CASE WHEN i % 10 = 0 THEN 'error' ELSE 'close' END, '2026-11-26T00:00:00Z', i / 10,"
                    + " 'exit 0 after 0.1 s' || char(10) || 'line ' || i, 0, 'fp' || (i % 1000), i / 10,"
                    + " '2026-11-26T00:00:00Z' FROM n");
            st.executeUpdate("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) "
                    + "INSERT INTO notes (text, source, priority, timestamp, read, tick_id) SELECT 'note ' || i"
                    + " || ' about the nightly backup', CASE WHEN i % 2 = 0 THEN 'user' ELSE 'cli' END, 0,"
                    + " '2026-11-26T00:00:00Z', 1, i FROM n");
            st.executeUpdate("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) "
                    + "INSERT INTO diary_entries (text, tags, priority, timestamp, llm_id) SELECT 'diary entry ' || i"
                    + " || ': the upload stalled at ' || (i % 97) || ' percent', 'backup', 0, '2026-11-26T00:00:00Z',"
                    + " 'm' FROM n");
            // the file's last tick: the agent goes on from there, past every filled row's tick
            st.executeUpdate("INSERT INTO agent_log (tick_id, started_at, ended_at, duration_ms, state) VALUES"
                    + " (100000, '2026-11-26T00:00:00Z', '2026-11-26T00:00:00Z', 0, 'thought')");
            st.execute("PRAGMA wal_checkpoint(TRUNCATE)");
        }
    }

    /** Budgets and the tick cap wide open: the bench measures the tick, not the SafetyMonitor. */
    private static AgentConfig config(Path db) {
        return ConfigLoader.load(ConfigSources.envOnly(Map.of("AGENT_DB", db.toString(),
                "AGENT_CYCLE_AUTONOMOUS", "true", "AGENT_SAFETY_TOKEN_BUDGET", "1000000000",
                "AGENT_SAFETY_TICK_CAP", "1000000"))).config();
    }

    /**
     * A thought of its own each tick (no stagnation), a diary entry written and the diary read back: the entries the
     * bench wrote ("finding"), newest first. The search's result shows the newest entry, a state the task has not seen,
     * so every tick makes progress as a healthy run does: with {@code diary_read} alone (its result, "5 diary entries
     * and 0 concepts will show in context 3", the same every tick) the no-progress rule rested the agent at tick 25
     * (safety.no_progress_stop, 20 calls polling one unchanged result). A word in no recent entry would make each read (the command's and context
     * 3's, every tick) scan all 100,000 entries: that is a cost of the query, not of the tick (see BENCHMARKS.md).
     */
    private static String reply(int tick) {
        List<String> thoughts = Scenario.thoughts();
        String thought = "Tick " + tick + ". " + thoughts.get(tick % thoughts.size());
        return thought + "\n\n# Commands:\n```json\n[{\"cmd_id\": \"w-" + tick + "\", \"type\": \"diary_entry\", \"args\":"
                + " {\"text\": \"finding " + tick + ": the upload log shows a stall\", \"tags\": \"backup\"}},\n"
                + " {\"cmd_id\": \"r-" + tick + "\", \"type\": \"diary_read\", \"args\": {\"query\": \"finding\"}},\n"
                + " {\"cmd_id\": \"s-" + tick + "\", \"type\": \"diary_search\", \"args\": {\"query\": \"finding\","
                + " \"limit\": 3}}]\n```\n"
                + "# End commands";
    }

    /** The fake LLM, with the time spent inside it. */
    private static final class TimedLlm implements LlmClient {
        final FakeLlmClient fake = new FakeLlmClient();
        long nanos;
        long cpuNanos;

        @Override
        public Completion complete(LlmRequest request, StreamListener listener, dev.hmpagent.llm.CallCancel cancel) {
            long t0 = System.nanoTime();
            long cpu0 = THREADS.getCurrentThreadCpuTime();
            try {
                return fake.complete(request, listener, cancel);
            } finally {
                nanos += System.nanoTime() - t0;
                cpuNanos += THREADS.getCurrentThreadCpuTime() - cpu0;
            }
        }

        @Override public String endpoint() { return fake.endpoint(); }
        @Override public String model() { return fake.model(); }
    }
}
