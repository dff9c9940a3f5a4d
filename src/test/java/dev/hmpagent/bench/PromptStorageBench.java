package dev.hmpagent.bench;

import dev.hmpagent.runtime.TestWiring;

import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.cycle.Cycle;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.llm.TokenEstimator;
import dev.hmpagent.llm.Usage;
import dev.hmpagent.store.AgentLogDao;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.PromptPart;
import dev.hmpagent.store.PromptsDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

/**
 * {@code scripts/bench prompts}: what storing every tick's prompt costs. Runs TICKS ticks of the real cycle
 * (default config, a real SQLite file) against a scripted model whose replies vary and carry commands, with a
 * new user message whenever the agent falls idle; then measures the stored prompts: the bytes each tick adds
 * with parts deduplicated by hash, against storing each prompt whole, and both on disk ({@code dbstat}).
 *
 * <p>Run from the shaded jar and the test classes: {@code java -cp target/hmp-agent.jar:target/test-classes
 * dev.hmpagent.bench.PromptStorageBench [TICKS] [DIR]}.
 */
public final class PromptStorageBench {
    private static final String[] WORDS = ("the agent note result diary memory plan goal check fact tick user message "
            + "command shell file read write network peer mesh concept link reply think idea test value error retry "
            + "later answer question because therefore maybe surely first next last small large quick slow").split(" ");

    private PromptStorageBench() { }

    public static void main(String[] args) throws Exception {
        int ticks = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        Path dir = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("prompt-bench");
        Path db = dir.resolve("agent.db");
        MutableClock clock = MutableClock.at("2026-11-22T10:00:00Z");
        try (Store store = Store.open(db, clock)) {
            run(store, clock, ticks);
            report(store, dir.resolve("whole.db"), ticks);
        }
    }

    private static void run(Store store, MutableClock clock, int ticks) {
        Cycle cycle = TestWiring.cycle(AgentConfig.defaults(), store, new ScriptedModel(new Random(42)), EventSink.DISCARD, clock);
        NotesDao notes = new NotesDao(store);
        Random random = new Random(7);
        int done = 0;
        int guard = 0;
        while (done < ticks) {
            if (++guard > ticks * 10) throw new IllegalStateException("the cycle stopped thinking after " + done + " ticks");
            clock.advance(Duration.ofSeconds(20));
            if (cycle.tick().worked()) {
                done++;
            } else {
                notes.add("message " + guard + ": " + words(random, 8 + random.nextInt(60)) + "?", "user", 0, null);
            }
        }
    }

    private static void report(Store store, Path wholeDb, int ticks) throws Exception {
        PromptsDao prompts = new PromptsDao(store);
        List<Long> whole = new ArrayList<>();
        List<Long> dedup = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        long lastTick = new AgentLogDao(store).lastTickId();
        try (Connection w = DriverManager.getConnection("jdbc:sqlite:" + wholeDb); Statement st = w.createStatement()) {
            st.execute("PRAGMA journal_mode = WAL");
            st.execute("CREATE TABLE whole_prompts (tick_id INTEGER NOT NULL, message INTEGER NOT NULL, role TEXT NOT NULL, "
                    + "text TEXT NOT NULL, PRIMARY KEY (tick_id, message))");
            try (PreparedStatement insert = w.prepareStatement("INSERT INTO whole_prompts VALUES (?, ?, ?, ?)")) {
                for (long tick = 1; tick <= lastTick; tick++) {
                    List<PromptPart> parts = prompts.load(tick);
                    if (parts.isEmpty()) continue;
                    long wholeBytes = 0;
                    long added = 0;
                    List<StringBuilder> messages = new ArrayList<>();
                    for (PromptPart p : parts) {
                        byte[] utf8 = p.text().getBytes(StandardCharsets.UTF_8);
                        wholeBytes += utf8.length;
                        added += 32;   // the part's reference: its hash
                        if (seen.add(HexFormat.of().formatHex(PromptsDao.sha256(p.text())))) added += 32 + utf8.length;
                        if (p.message() == messages.size()) messages.add(new StringBuilder());
                        messages.get(p.message()).append(p.text());
                    }
                    whole.add(wholeBytes);
                    dedup.add(added);
                    w.setAutoCommit(false);
                    for (int m = 0; m < messages.size(); m++) {
                        insert.setLong(1, tick);
                        insert.setInt(2, m);
                        insert.setString(3, m == 0 ? "system" : "user");
                        insert.setString(4, messages.get(m).toString());
                        insert.executeUpdate();
                    }
                    w.commit();
                    w.setAutoCommit(true);
                }
            }
        }
        int n = whole.size();
        long diskDedup = pages(store.path(), "'prompt_sections', 'tick_prompts', 'sqlite_autoindex_prompt_sections_1'");
        long diskWhole = pages(wholeDb, "'whole_prompts', 'sqlite_autoindex_whole_prompts_1'");
        System.out.printf(Locale.ROOT, "prompt storage over %d ticks of the real cycle (default config, scripted model):%n", n);
        System.out.printf(Locale.ROOT, "  without dedup (each prompt whole) : median %,6d B/tick, total %,d B of text%n",
                median(whole), sum(whole));
        System.out.printf(Locale.ROOT, "  with dedup (parts by SHA-256)     : median %,6d B/tick, total %,d B (new text + 32 B keys)"
                + ", %.1fx less%n", median(dedup), sum(dedup), (double) sum(whole) / sum(dedup));
        System.out.printf(Locale.ROOT, "  on disk (dbstat pages), whole     : %,6d B/tick%n", diskWhole / n);
        System.out.printf(Locale.ROOT, "  on disk (dbstat pages), dedup     : %,6d B/tick (prompt_sections, its key index, tick_prompts)%n",
                diskDedup / n);
    }

    /** Bytes of the pages that hold the named tables and indexes. */
    private static long pages(Path db, String names) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
             ResultSet rs = c.createStatement().executeQuery("SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name IN (" + names + ")")) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static long sum(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).sum();
    }

    private static String words(Random random, int count) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < count; i++) sb.append(i == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
        return sb.toString();
    }

    /** Replies of varying length; answers a message with send_message, now and then writes the diary or notebook. */
    private static final class ScriptedModel implements LlmClient {
        private final Random random;
        private int calls;

        ScriptedModel(Random random) {
            this.random = random;
        }

        @Override
        public Completion complete(LlmRequest request, StreamListener listener, dev.hmpagent.llm.CallCancel cancel) {
            calls++;
            String user = request.messages().get(1).content();
            boolean message = !user.contains("(no unread messages)");
            List<String> commands = new ArrayList<>();
            if (message) commands.add(command("send_message", "\"text\": \"" + words(random, 10 + random.nextInt(30)) + "\""));
            if (calls % 3 == 0) commands.add(command("diary_entry", "\"text\": \"" + words(random, 20 + random.nextInt(40)) + "\""));
            if (calls % 7 == 0) {
                commands.add(command("memory_add", "\"title\": \"" + words(random, 3) + "\", \"content\": \""
                        + words(random, 10 + random.nextInt(20)) + "\""));
            }
            if (calls % 10 == 0) commands.add(command("diary_read", "\"query\": \"" + WORDS[random.nextInt(WORDS.length)] + "\""));
            String text = words(random, 40 + random.nextInt(120)) + "."
                    + (commands.isEmpty() ? "" : "\n\n# Commands:\n```json\n[" + String.join(",\n ", commands) + "]\n```\n# End commands");
            return new Completion(text, new Usage(TokenEstimator.estimate(request.messages()), TokenEstimator.estimate(text), true),
                    model(), "stop", false);
        }

        private String command(String type, String args) {
            return "{\"cmd_id\": \"c-" + calls + "-" + type + "\", \"type\": \"" + type + "\", \"args\": {" + args + "}}";
        }

        @Override
        public String endpoint() { return "scripted"; }

        @Override
        public String model() { return "bench-model"; }
    }
}
