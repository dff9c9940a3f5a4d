package dev.hmpagent.bench;

import dev.hmpagent.cli.Cli;
import dev.hmpagent.process.AgentChildren;
import dev.hmpagent.runtime.Launch;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeOpenAiServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jline.terminal.impl.DumbTerminal;
import picocli.CommandLine;

/**
 * {@code scripts/bench mesh} (issue 37): agents that talk over A2A, each `agent run` against an instant fake model
 * that answers every peer's note with note_reply. (1) The round trip of one message between two agents at 2 Hz: A's
 * peer_message row from its creation to B's answer written as its result (process_log.timestamp → updated_at).
 * (2) Messages per second one agent at 10 Hz serves to 3 callers sending at once (blocking SendMessage; a reply
 * sends at most 3 messages). (3) RSS and idle CPU of each of 10 agents on this machine, each its own JVM with the long-run flags
 * ({@link AgentChildren#LONG_RUN_FLAGS}) as a spawned child runs.
 */
public final class MeshBench {
    static final Pattern PEER_NOTE = Pattern.compile("\\[note (\\d+) from peer");

    private MeshBench() { }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        // [ROUNDS [STAGE]] DIR, as scripts/bench passes them: the folder last
        Path dir = args.length > 1 ? Path.of(args[args.length - 1]) : Files.createTempDirectory("mesh-bench");
        try (FakeOpenAiServer model = new FakeOpenAiServer()) {
            model.script(request -> FakeOpenAiServer.streamedResponse(reply(request.getBody() == null ? ""
                    : request.getBody().utf8()), 10, 5, 0));
            String only = args.length > 2 ? args[1] : "";
            if (only.isEmpty() || only.equals("rt")) roundTrip(dir.resolve("rt"), model, rounds);
            if (only.isEmpty() || only.equals("served")) served(dir.resolve("served"), model, 60);
            if (only.isEmpty() || only.equals("idle")) idle(dir.resolve("idle"), model, 10);
        }
    }

    /** B answers every peer's note it is shown (unread); A asks b the round the person's note names; else nothing. */
    static String reply(String body) {
        StringBuilder cmds = new StringBuilder();
        Matcher m = PEER_NOTE.matcher(body);
        Set<String> seen = new java.util.HashSet<>();
        while (m.find()) {
            String id = m.group(1);
            if (seen.add(id)) {
                if (cmds.length() > 0) cmds.append(",\n");
                cmds.append("{\"cmd_id\": \"r").append(id).append("\", \"type\": \"note_reply\", \"args\": {\"id\": ")
                        .append(id).append(", \"text\": \"answer to note ").append(id).append("\"}}");
            }
        }
        Matcher round = Pattern.compile("round (\\d+)\\b").matcher(body);
        String last = null;
        while (round.find()) last = round.group(1);
        if (cmds.length() == 0 && last != null && body.contains("from cli") && !body.contains("Asking b round " + last)) {
            cmds.append("{\"cmd_id\": \"p").append(last).append("\", \"type\": \"peer_message\", \"args\": {\"peer\": \"b\","
                    + " \"text\": \"round ").append(last).append("\"}}");
            return "Asking b round " + last + ".\n# Commands:\n[" + cmds + "]\n# End commands";
        }
        // nothing to do: a reply without commands ends the turn, and the next note wakes it (an idle would hold the
        // agent past a note from the command line, which only a person's message or a peer's A2A message ends)
        if (cmds.length() == 0) return "Nothing to do now.";
        return "Working.\n# Commands:\n[" + cmds + "]\n# End commands";
    }

    private static void roundTrip(Path dir, FakeOpenAiServer model, int rounds) throws Exception {
        Agent b = Agent.in(dir.resolve("b"), "b", model, "", 2);
        Agent a = Agent.in(dir.resolve("a"), "a", model, "\"b\"", 2);
        try {
            b.start();
            a.start();
            b.awaitServing();
            a.awaitServing();
            if (a.cli("peers", "add", "b", b.url()).code() != 0) throw new IllegalStateException("peers add failed");
            List<Double> ms = new ArrayList<>();
            for (int r = 1; r <= rounds; r++) {
                a.cli("note", "round " + r);
                String row = a.await("SELECT timestamp || ' ' || updated_at FROM process_log WHERE name = 'peer_message'"
                        + " AND cmd_id = 'p" + r + "' AND status = 'ok'", Duration.ofSeconds(60));
                String[] t = row.split(" ");
                ms.add(Duration.between(Instant.parse(t[0]), Instant.parse(t[1])).toNanos() / 1e6);
            }
            System.out.printf(Locale.ROOT, "round trip A -> B -> A at 2 Hz (a frame is 500 ms), %d messages: median %.0f ms,"
                    + " p90 %.0f ms, min %.0f, max %.0f%n", rounds, pct(ms, 50), pct(ms, 90), pct(ms, 0), pct(ms, 100));
        } finally {
            a.stop();
            b.stop();
        }
    }

    private static void served(Path dir, FakeOpenAiServer model, int messages) throws Exception {
        Agent b = Agent.in(dir, "b", model, "", 10);
        HttpClient http = HttpClient.newHttpClient();
        ExecutorService callers = Executors.newFixedThreadPool(3);   // a reply sends at most 3 messages (CommandQueue)
        try {
            b.start();
            b.awaitServing();
            long t0 = System.nanoTime();
            List<Future<Double>> sent = new ArrayList<>();
            for (int i = 0; i < messages; i++) {
                int n = i;
                sent.add(callers.submit(() -> {
                    long s = System.nanoTime();
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(b.url()))
                            .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\": \"2.0\", \"id\": " + n + ", \"method\":"
                                    + " \"SendMessage\", \"params\": {\"message\": {\"messageId\": \"m" + n + "\", \"role\":"
                                    + " \"ROLE_USER\", \"parts\": [{\"text\": \"question " + n + "\"}]}}}")).build(),
                            HttpResponse.BodyHandlers.ofString());
                    if (!r.body().contains("TASK_STATE_COMPLETED")) throw new IllegalStateException(r.body());
                    return (System.nanoTime() - s) / 1e6;
                }));
            }
            List<Double> each = new ArrayList<>();
            for (Future<Double> f : sent) each.add(f.get());
            double secs = (System.nanoTime() - t0) / 1e9;
            System.out.printf(Locale.ROOT, "served by one agent at 10 Hz, %d blocking SendMessage from 3 callers at once:"
                    + " %.1f messages/s (%.1f s in all); each message's wait: median %.0f ms, p90 %.0f ms%n", messages,
                    messages / secs, secs, pct(each, 50), pct(each, 90));
        } finally {
            callers.shutdownNow();
            b.stop();
        }
    }

    private static void idle(Path dir, FakeOpenAiServer model, int agents) throws Exception {
        List<Process> ps = new ArrayList<>();
        try {
            for (int i = 0; i < agents; i++) {
                Path folder = Files.createDirectories(dir.resolve("agent" + i));
                Files.writeString(folder.resolve("agent.toml"), "[llm]\nmodel = \"m\"\n[a2a]\nlisten = \"127.0.0.1:0\"\n");
                // as a spawned child of an installed agent runs: the program's jar alone on the class path (this
                // bench's class path, with the test classes and their libraries, held ~8 MB more per agent)
                List<String> argv = new ArrayList<>(AgentChildren.agentCommand(List.of("--config",
                        folder.resolve("agent.toml").toString(), "--db", folder.resolve("agent.db").toString(),
                        "--base-url", model.baseUrl(), "run", "--hz", "2")));
                argv.set(argv.indexOf("-cp") + 1, System.getProperty("java.class.path").split(java.io.File.pathSeparator)[0]);
                ProcessBuilder pb = new ProcessBuilder(argv);
                pb.environment().put("HOME", folder.toString());
                ps.add(pb.redirectErrorStream(true).redirectOutput(folder.resolve("out.log").toFile()).start());
            }
            Thread.sleep(30_000);   // started, the first tick thought, then nothing to do: idle
            long[] cpu0 = new long[agents];
            for (int i = 0; i < agents; i++) cpu0[i] = cpuTicks(ps.get(i).pid());
            Thread.sleep(10_000);
            List<Double> rss = new ArrayList<>();
            List<Double> cpu = new ArrayList<>();
            List<Double> threads = new ArrayList<>();
            for (int i = 0; i < agents; i++) {
                long pid = ps.get(i).pid();
                rss.add(status(pid, "VmRSS") / 1024.0);
                threads.add((double) status(pid, "Threads"));
                cpu.add((cpuTicks(pid) - cpu0[i]) / 10.0);   // 100 ticks a second, over 10 s: % of a core
            }
            System.out.printf(Locale.ROOT, "%d idle agents (agent run --hz 2, [a2a] listen, the long-run JVM flags),"
                    + " each: RSS median %.0f MB, max %.0f MB; CPU median %.2f %%, max %.2f %% of a core; threads %.0f%n",
                    agents, pct(rss, 50), pct(rss, 100), pct(cpu, 50), pct(cpu, 100), pct(threads, 50));
        } finally {
            ps.forEach(Process::destroy);
            for (Process p : ps) p.waitFor();
        }
    }

    private static long status(long pid, String key) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith(key + ":")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
        throw new IllegalStateException(key + " not in /proc/" + pid + "/status");
    }

    private static long cpuTicks(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    private static double pct(List<Double> values, int p) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(Math.min(sorted.size() - 1, (sorted.size() - 1) * p / 100));
    }

    /** One agent run in this JVM, as `agent run` on its own folder, file and port. */
    record Agent(String name, Path db, Path config, FakeOpenAiServer model, int port, int hz,
                 List<CompletableFuture<Integer>> run) {
        static Agent in(Path folder, String name, FakeOpenAiServer model, String allow, int hz) throws Exception {
            Files.createDirectories(folder);
            int port;
            try (ServerSocket free = new ServerSocket(0)) {
                port = free.getLocalPort();
            }
            Path config = folder.resolve("agent.toml");
            Files.writeString(config, "[agent]\nname = \"" + name + "\"\n[llm]\nmodel = \"m\"\n[cycle]\nautonomous = false\n"
                    + "[safety]\ntoken_budget = 100000000\ntick_cap = 1000000\n[a2a]\nlisten = \"127.0.0.1:" + port
                    + "\"\nallow = [" + allow + "]\nrate_per_minute = 100000\n");
            Path db = folder.resolve("agent.db");
            Store.open(db, Clock.systemUTC()).close();
            return new Agent(name, db, config, model, port, hz, new ArrayList<>());
        }

        String url() {
            return "http://127.0.0.1:" + port + "/";
        }

        void start() {
            run.add(CompletableFuture.supplyAsync(() -> cli("run", "--hz", Integer.toString(hz), "--exit-on-lockout").code()));
        }

        void stop() throws Exception {
            cli("halt", "--reason", "bench over");
            run.get(0).get();
        }

        void awaitServing() throws Exception {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < deadline) {
                try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
                    return;
                } catch (java.io.IOException notYet) {
                    Thread.sleep(20);
                }
            }
            throw new IllegalStateException(name + " never served " + url());
        }

        String await(String sql, Duration max) throws Exception {
            long deadline = System.nanoTime() + max.toNanos();
            while (System.nanoTime() < deadline) {
                try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                     ResultSet rs = c.createStatement().executeQuery(sql)) {
                    if (rs.next()) return rs.getString(1);
                }
                Thread.sleep(5);
            }
            throw new IllegalStateException("no row in " + max + " for " + sql);
        }

        record Run(int code, String out, String err) { }

        Run cli(String... args) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            Launch launch = new Launch(Map.of("HOME", db.getParent().toString()),
                    () -> new DumbTerminal(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()),
                    Clock.systemUTC(), false, dev.hmpagent.runtime.LlmChain::client, (n, handler) -> { });
            CommandLine cl = Cli.commandLine(launch);
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            List<String> all = new ArrayList<>(List.of(args));
            all.addAll(List.of("--config", config.toString(), "--db", db.toString(), "--base-url", model.baseUrl()));
            return new Run(cl.execute(all.toArray(String[]::new)), out.toString(), err.toString());
        }
    }
}
