package dev.hmpagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.runtime.Launch;
import dev.hmpagent.testing.FakeOpenAiServer;
import dev.hmpagent.testing.FastTime;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.SqlFile;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.jline.terminal.impl.DumbTerminal;
import picocli.CommandLine;

/**
 * One scenario of the self-control suite (issue 23) through a real headless agent: {@code agent run --hz 10
 * --exit-on-lockout} on a real file with the default config (and the scenario's few lines), the scripted model on a
 * real socket, time that moves with a fake clock ({@link FastTime}: a frame costs a fraction of a millisecond), then
 * {@code agent status}; the figures are read from the file as a person would: llm_calls, process_log, safety_audit,
 * reflex_firings. Used by {@code SelfControlEndToEndTest}, {@code SelfControlHealthyEndToEndTest} and by {@code
 * scripts/bench self-control}.
 */
public final class SelfControlRun {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the scripted model is given for each main request. */
    public record Call(int n, JsonNode body, Path workspace, SelfControlRun run) {
        /** The text of the request's last message (where the new process results and notes are). */
        public String lastMessage() {
            JsonNode messages = body.path("messages");
            return messages.path(messages.size() - 1).path("content").asText("");
        }
    }

    /** The model: the response to main request {@code n} (1-based). */
    @FunctionalInterface
    public interface Model {
        MockResponse answer(Call call) throws IOException;
    }

    /**
     * What one scenario did.
     *
     * @param calls          main requests the model received
     * @param judgeCalls     comparison requests (step 5's judge)
     * @param alertCall      the main call whose reply got the first alert (a SYSTEM ALERT on one of its rows), 0 for none
     * @param reflexCall     the main call after which the anti-stagnation reflex first fired, 0 for never
     * @param stopCall       main calls made when the state left ACTIVE, 0 when it never did
     * @param state          the safety state at the end, as the audit labels it (STOPPED(budget))
     * @param statusExit     {@code agent status}'s exit code at the end
     * @param runExit        {@code agent run}'s exit code
     * @param audit          safety_audit rows: "event to_state"
     * @param alertsHeard    lines the alert command received
     * @param tokens         tokens of every call (main and judge), as llm_calls has them
     * @param judgeTokens    of those, the judge's
     * @param afterStop      main requests made after the state left ACTIVE
     * @param firings        reflex firings: "tick strategy"
     */
    public record Outcome(int calls, int judgeCalls, int alertCall, int reflexCall, int stopCall, String state, int statusExit,
                          int runExit, List<String> audit, List<String> alertsHeard, long tokens, long judgeTokens,
                          int afterStop, List<String> firings, String runOut) {
        public boolean stopped() {
            return stopCall > 0;
        }
    }

    final Path dir;
    final Path db;
    final Path config;
    final Path workspace;
    final Path alerts;
    final MutableClock clock = MutableClock.at("2026-11-27T09:00:00Z");
    private final FastTime time = new FastTime(clock);
    private final FakeOpenAiServer llm;
    private final AtomicInteger mainCalls = new AtomicInteger();
    private final Map<String, String> env = new java.util.HashMap<>();

    private SelfControlRun(Path dir, FakeOpenAiServer llm) throws IOException {
        this.dir = dir;
        this.llm = llm;
        db = dir.resolve("agent.db");
        config = dir.resolve("agent.toml");
        workspace = Files.createDirectories(dir.resolve("workspace"));
        alerts = dir.resolve("alerts.txt");
    }

    /** Runs {@code scenario} in {@code dir} (empty), to its end or its stop. */
    public static Outcome run(SelfControlScenario scenario, Path dir) throws IOException {
        try (FakeOpenAiServer llm = new FakeOpenAiServer()) {
            SelfControlRun run = new SelfControlRun(dir, llm);
            return run.play(scenario);
        }
    }

    private Outcome play(SelfControlScenario s) throws IOException {
        // the alert command is a key only agent.toml may set (it runs something on the host)
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n\n[safety]\nalert_command = \"printf '%s\\\\n' \\\"$1\\\" >> '"
                + alerts + "'\"\n");
        env.put("HOME", dir.toString());
        s.config().forEach((key, value) -> env.put("AGENT_" + key.toUpperCase(java.util.Locale.ROOT).replace('.', '_'), value));
        s.setup().accept(workspace);
        if (s.strictJudge()) {
            llm.judgement = "{\"new_thoughts\": \"no\", \"novelty\": 0.05, \"new_ideas\": [], \"refined_ideas\": [],"
                    + " \"discarded_ideas\": []}";
        }
        llm.script(request -> {
            int n = mainCalls.incrementAndGet();
            try {
                return s.model().answer(new Call(n, JSON.readTree(request.getBody().utf8()), workspace, this));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        if (s.task() != null) note(s.task());
        List<String> args = new ArrayList<>(List.of("run", "--hz", "10", "--exit-on-lockout", "--max-ticks",
                Integer.toString(s.frames())));
        // a person's task runs until nothing is left to answer; without one, for its frames
        if (s.healthy() && s.task() != null) args.add("--until-idle");
        Ran run = cli(args.toArray(String[]::new));
        Ran status = cli("status");
        return outcome(run, status);
    }

    /** A person's message, as {@code agent note} sends it (also from the model's thread, between two calls). */
    public void note(String text) {
        Ran note = cli("note", text);
        if (note.code() != 0) throw new IllegalStateException("agent note failed: " + note.err());
    }

    record Ran(int code, String out, String err) { }

    private Ran cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Launch launch = new Launch(env, () -> new DumbTerminal(
                new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()), clock, false).pacedBy(time);
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--config", config.toString(), "--db", db.toString(), "--base-url", llm.baseUrl()));
        return new Ran(cl.execute(all.toArray(String[]::new)), out.toString(), err.toString());
    }

    private Outcome outcome(Ran run, Ran status) throws IOException {
        SqlFile file = new SqlFile(db);
        List<String> mainTicks = file.rows("SELECT tick_id FROM llm_calls WHERE purpose = 'main' ORDER BY id");
        List<String> audit = file.rows("SELECT event || ' ' || to_state FROM safety_audit ORDER BY id");
        long alertTick = first(file, "SELECT min(tick_id) FROM process_log WHERE result LIKE 'SYSTEM ALERT%'"
                + " OR result LIKE '%' || char(10) || 'SYSTEM ALERT%'");
        long reflexTick = first(file, "SELECT min(tick_id) FROM reflex_firings");
        int stopCall = 0;
        int afterStop = 0;
        List<String> stops = file.rows("SELECT at FROM safety_audit WHERE to_state <> 'ACTIVE' ORDER BY id LIMIT 1");
        if (!stops.isEmpty()) {
            // the file's two formats (millis always, ISO's shortest) compared as instants
            java.time.Instant at = java.time.Instant.parse(stops.get(0));
            for (String call : file.rows("SELECT at FROM llm_calls WHERE purpose = 'main' ORDER BY id")) {
                if (java.time.Instant.parse(call).isAfter(at)) afterStop++;
                else stopCall++;
            }
        }
        List<String> heard = heard(!stops.isEmpty());
        return new Outcome(mainCalls.get(), llm.comparisons(), callOf(mainTicks, alertTick),
                callOf(mainTicks, reflexTick), stopCall,
                // the state as the audit labels it (STOPPED(budget)), or as the file has it
                audit.isEmpty() ? file.rows("SELECT state FROM safety_state").get(0)
                        : audit.get(audit.size() - 1).substring(audit.get(audit.size() - 1).indexOf(' ') + 1), status.code(), run.code(), audit, heard,
                count(file, "SELECT coalesce(sum(prompt_tokens + completion_tokens), 0) FROM llm_calls"),
                count(file, "SELECT coalesce(sum(prompt_tokens + completion_tokens), 0) FROM llm_calls"
                        + " WHERE purpose = 'comparison'"),
                afterStop, file.rows("SELECT tick_id || ' ' || strategy FROM reflex_firings ORDER BY id"),
                run.out() + run.err());
    }

    /**
     * The lines the alert command wrote: it runs as a process of its own once the stop committed, so after a stop
     * its line is waited for (up to 10 s, as a person's pager would be).
     */
    private List<String> heard(boolean stopped) throws IOException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (stopped && !Files.exists(alerts) && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(20_000_000);
        }
        return Files.exists(alerts) ? Files.readAllLines(alerts) : List.of();
    }

    /** The ordinal (1-based) of the main call made in {@code tick}, or of the last one before it; 0 for no tick. */
    private static int callOf(List<String> mainTicks, long tick) {
        if (tick <= 0) return 0;
        int call = 0;
        for (String t : mainTicks) {
            if (Long.parseLong(t) > tick) break;
            call++;
        }
        return call;
    }

    private static long first(SqlFile file, String sql) {
        String v = file.rows(sql).get(0);
        return v == null ? 0 : Long.parseLong(v);
    }

    private static int count(SqlFile file, String sql) {
        return Integer.parseInt(file.rows(sql).get(0));
    }

    /** A streamed reply whose usage is about what a real server would count: 4 characters a token. */
    public static MockResponse reply(Call call, String text) {
        return FakeOpenAiServer.streamedResponse(text, call.body().toString().length() / 4, text.length() / 4 + 1, -1);
    }

    static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
