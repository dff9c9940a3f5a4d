package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.Launch;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeOpenAiServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Two real agents on the loopback, each `agent run` with [a2a] listen and a scripted model: A asks B with
 * peer_message and reads B's note_reply as the command's result; and when B, instead of answering, asks A back, A
 * refuses the message as a loop between agents (its trace holds A) and B's send ends saying so.
 */
@Timeout(120)
class MeshEndToEndTest {
    @TempDir Path dir;
    final List<FakeOpenAiServer> models = new ArrayList<>();
    final List<CompletableFuture<Run>> runs = new ArrayList<>();
    final List<Agent> agents = new ArrayList<>();

    /** One agent's folder: its file, its config, its model, its address. */
    record Agent(String name, Path db, Path config, FakeOpenAiServer model, int port) {
        String url() {
            return "http://127.0.0.1:" + port + "/";
        }
    }

    @AfterEach
    void stop() throws Exception {
        agents.forEach(a -> cli(a, "halt", "--reason", "test over"));
        for (CompletableFuture<Run> r : runs) {
            if (!r.isDone()) r.get(60, TimeUnit.SECONDS);
        }
        models.forEach(FakeOpenAiServer::close);
    }

    private Agent agent(String name, String allow, Function<String, String> reply) throws Exception {
        Path folder = Files.createDirectories(dir.resolve(name));
        FakeOpenAiServer model = new FakeOpenAiServer();
        models.add(model);
        model.script(request -> respond(request, reply));
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Path config = folder.resolve("agent.toml");
        Files.writeString(config, "[agent]\nname = \"" + name + "\"\n[llm]\nmodel = \"test-model\"\n[cycle]\n"
                + "autonomous = false\n[a2a]\nlisten = \"127.0.0.1:" + port + "\"\nallow = [" + allow + "]\n");
        Path db = folder.resolve("agent.db");
        Store.open(db, Clock.systemUTC()).close();
        Agent agent = new Agent(name, db, config, model, port);
        agents.add(agent);
        return agent;
    }

    private static MockResponse respond(RecordedRequest request, Function<String, String> reply) {
        String body = request.getBody() == null ? "" : request.getBody().utf8();
        return FakeOpenAiServer.streamedResponse(reply.apply(body), 10, 5, 0);
    }

    private static String commands(String prose, String json) {
        return prose + "\n# Commands:\n[" + json + "]\n# End commands";
    }

    private void start(Agent a) {
        runs.add(CompletableFuture.supplyAsync(() -> cli(a, "run", "--hz", "20", "--exit-on-lockout")));
    }

    @Test
    void a_asks_b_and_reads_bs_answer_as_the_result_of_its_peer_message() throws Exception {
        Agent b = agent("b", "", body -> body.contains("[note 1 from peer")
                && !body.contains("answer sent to peer")
                ? commands("Answering.", "{\"cmd_id\": \"r\", \"type\": \"note_reply\", \"args\": {\"id\": 1,"
                        + " \"text\": \"six times seven is 42\"}}")
                : commands("Done.", "{\"cmd_id\": \"i\", \"type\": \"idle\", \"args\": {}}"));
        Agent a = agent("a", "\"b\"", body -> body.contains("six times seven is 42")
                ? commands("B answered.", "{\"cmd_id\": \"d\", \"type\": \"send_message\", \"args\": {\"text\":"
                        + " \"b says 42\"}}")
                : body.contains("Asking b.") ? commands("Waiting.", "{\"cmd_id\": \"i\", \"type\": \"idle\", \"args\": {}}")
                : commands("Asking b.", "{\"cmd_id\": \"p\", \"type\": \"peer_message\", \"args\": {\"peer\": \"b\","
                        + " \"text\": \"what is six times seven?\"}}"));
        start(b);
        awaitServing(b);
        String card = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(b.url() + ".well-known/agent-card.json")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        assertThat(card).as("the card names the agent and the program's version, as agent --version does")
                .contains("\"name\":\"b\"").contains("\"version\":\"" + dev.hmpagent.text.AppVersion.current() + "\"");
        assertThat(cli(a, "peers", "add", "b", b.url()).code()).isZero();
        assertThat(cli(a, "note", "ask b what six times seven is").code()).isZero();
        start(a);

        String result = await(a.db(), "SELECT status || ': ' || result FROM process_log WHERE name = 'peer_message'"
                + " AND status <> 'running' AND status <> 'pending'");
        assertThat(result).startsWith("ok").contains("six times seven is 42");
        String selfA = text(a.db(), "SELECT id FROM identity ORDER BY created_at, id LIMIT 1");
        assertThat(text(b.db(), "SELECT state || ' ' || trace FROM a2a_tasks")).isEqualTo("completed [\"" + selfA + "\"]");
    }

    @Test
    void five_agents_a_asks_the_four_others_at_once_and_reads_each_answer() throws Exception {
        List<String> names = List.of("b", "c", "d", "e");
        List<Agent> others = new ArrayList<>();
        for (String n : names) {
            others.add(agent(n, "", body -> body.contains("[note 1 from peer") && !body.contains("answer sent to peer")
                    ? commands("Answering.", "{\"cmd_id\": \"r\", \"type\": \"note_reply\", \"args\": {\"id\": 1,"
                            + " \"text\": \"" + n + " is fine\"}}")
                    : commands("Done.", "{\"cmd_id\": \"i\", \"type\": \"idle\", \"args\": {}}")));
        }
        StringBuilder asks = new StringBuilder();
        for (String n : names) {
            if (asks.length() > 0) asks.append(", ");
            asks.append("{\"cmd_id\": \"p-").append(n).append("\", \"type\": \"peer_message\", \"args\": {\"peer\": \"")
                    .append(n).append("\", \"text\": \"how are you?\"}}");
        }
        Agent a = agent("a", "\"b\", \"c\", \"d\", \"e\"", body -> body.contains("Asking all.")
                ? commands("Waiting.", "{\"cmd_id\": \"i\", \"type\": \"idle\", \"args\": {}}")
                : commands("Asking all.", asks.toString()));
        for (Agent o : others) {
            start(o);
            awaitServing(o);
            assertThat(cli(a, "peers", "add", o.name(), o.url()).code()).isZero();
        }
        assertThat(cli(a, "note", "ask everyone how they are").code()).isZero();
        start(a);

        for (String n : names) {
            assertThat(await(a.db(), "SELECT status || ': ' || result FROM process_log WHERE cmd_id = 'p-" + n + "'"
                    + " AND status NOT IN ('running', 'pending')")).startsWith("ok").contains(n + " is fine");
        }
    }

    @Test
    void b_asking_a_back_inside_as_task_is_a_loop_a_refuses_and_bs_send_says_so() throws Exception {
        Agent a = agent("a", "\"b\"", body -> body.contains("Asking b.") || body.contains("[note 1 from peer")
                ? commands("Waiting.", "{\"cmd_id\": \"i\", \"type\": \"idle\", \"args\": {}}")
                : commands("Asking b.", "{\"cmd_id\": \"p\", \"type\": \"peer_message\", \"args\": {\"peer\": \"b\","
                        + " \"text\": \"what is six times seven?\"}}"));
        Agent b = agent("b", "\"a\"", body -> body.contains("[note 1 from peer") && !body.contains("Asking a back.")
                ? commands("Asking a back.", "{\"cmd_id\": \"q\", \"type\": \"peer_message\", \"args\": {\"peer\":"
                        + " \"a\", \"text\": \"why do you ask?\"}}")
                : commands("Waiting.", "{\"cmd_id\": \"i\", \"type\": \"idle\", \"args\": {}}"));
        start(a);
        start(b);
        awaitServing(a);
        awaitServing(b);
        assertThat(cli(a, "peers", "add", "b", b.url()).code()).isZero();
        assertThat(cli(b, "peers", "add", "a", a.url()).code()).isZero();
        assertThat(cli(a, "note", "ask b").code()).isZero();

        String back = await(b.db(), "SELECT status || ': ' || result FROM process_log WHERE name = 'peer_message'"
                + " AND status <> 'running' AND status <> 'pending'");
        assertThat(back).contains("a loop between agents");
        assertThat(text(a.db(), "SELECT state FROM a2a_tasks")).isEqualTo("rejected");
    }

    @Test
    void a_child_spawned_with_agent_spawn_answers_its_parent_over_a2a_and_shows_in_the_tree() throws Exception {
        // one model for both: the child's prompt holds the parent's message as a peer's note, the parent's does not
        Agent p = agent("parent", "", body -> body.contains("A2A message from peer")
                ? body.contains("answer sent to peer") ? commands("Done.", "{\"cmd_id\": \"i\", \"type\": \"idle\","
                        + " \"args\": {}}")
                : commands("Answering.", "{\"cmd_id\": \"r\", \"type\": \"note_reply\", \"args\": {\"id\": 1,"
                        + " \"text\": \"the child's answer: 42\"}}")
                : body.contains("Asking helper.") ? commands("Waiting.", "{\"cmd_id\": \"i\", \"type\": \"idle\","
                        + " \"args\": {}}")
                : commands("Asking helper.", "{\"cmd_id\": \"p\", \"type\": \"peer_message\", \"args\":"
                        + " {\"peer\": \"helper\", \"text\": \"what is six times seven?\"}}"));
        start(p);
        awaitServing(p);
        Run spawned = cli(p, "spawn", "helper");
        assertThat(spawned.code()).as(spawned.out() + spawned.err()).isZero();
        String url = await(p.db(), "SELECT url FROM agent_peers WHERE name = 'helper'");
        awaitServing(Integer.parseInt(url.replaceAll(".*:(\\d+)/?$", "$1")), "helper");
        assertThat(cli(p, "note", "ask your helper").code()).isZero();

        assertThat(await(p.db(), "SELECT status || ': ' || result FROM process_log WHERE name = 'peer_message'"
                + " AND status NOT IN ('running', 'pending')")).startsWith("ok").contains("the child's answer: 42");
        Run tree = cli(p, "status", "--tree");
        assertThat(tree.out()).contains("helper");
    }

    @Test
    void a_peer_that_stops_in_the_middle_of_a_task_answers_it_after_its_restart_and_the_asker_gets_the_answer()
            throws Exception {
        java.util.concurrent.atomic.AtomicBoolean restarted = new java.util.concurrent.atomic.AtomicBoolean();
        Agent b = agent("b", "", body -> body.contains("stopped before it answered") && restarted.get()
                && !body.contains("answer sent to peer")
                ? commands("Answering now.", "{\"cmd_id\": \"r\", \"type\": \"note_reply\", \"args\": {\"id\": 2,"
                        + " \"text\": \"answered after a restart\"}}")
                : commands("Thinking.", "{\"cmd_id\": \"i\", \"type\": \"idle\", \"args\": {}}"));
        Agent a = agent("a", "\"b\"", body -> body.contains("Asking b.")
                ? commands("Waiting.", "{\"cmd_id\": \"i\", \"type\": \"idle\", \"args\": {}}")
                : commands("Asking b.", "{\"cmd_id\": \"p\", \"type\": \"peer_message\", \"args\": {\"peer\": \"b\","
                        + " \"text\": \"a long job\"}}"));
        CompletableFuture<Run> bRun = CompletableFuture.supplyAsync(() -> cli(b, "run", "--hz", "20", "--exit-on-lockout"));
        awaitServing(b);
        assertThat(cli(a, "peers", "add", "b", b.url()).code()).isZero();
        assertThat(cli(a, "note", "ask b").code()).isZero();
        start(a);
        // b read the peer's note (its task is working) and stops before it answers
        await(b.db(), "SELECT t.id FROM a2a_tasks t JOIN notes n ON n.id = t.note_id WHERE n.read = 1");
        assertThat(cli(b, "halt", "--reason", "restart").code()).isZero();
        assertThat(bRun.get(60, TimeUnit.SECONDS).code()).isEqualTo(7);
        assertThat(text(a.db(), "SELECT status FROM process_log WHERE name = 'peer_message'")).isEqualTo("running");

        restarted.set(true);
        assertThat(cli(b, "unlock", "--reason", "restarted").code()).isZero();
        start(b);

        String got;
        try {
            got = await(a.db(), "SELECT status || ': ' || result FROM process_log WHERE name = 'peer_message'"
                    + " AND status NOT IN ('running', 'pending')");
        } catch (AssertionError e) {
            throw new AssertionError("b: " + text(b.db(), "SELECT group_concat(t.state || ' note ' || t.note_id || ' read '"
                    + " || n.read || ' answer ' || coalesce(t.answer, ''), '; ') FROM a2a_tasks t JOIN notes n ON n.id ="
                    + " t.note_id") + " / b state " + text(b.db(), "SELECT state FROM safety_state") + " / b replies "
                    + text(b.db(), "SELECT group_concat(name || ' ' || status, '; ') FROM process_log"), e);
        }
        assertThat(got).startsWith("ok").contains("answered after a restart");
        assertThat(text(b.db(), "SELECT state FROM a2a_tasks")).isEqualTo("completed");
    }

    private void awaitServing(int port, String name) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
                return;
            } catch (java.io.IOException notYet) {
                Thread.sleep(50);
            }
        }
        throw new AssertionError(name + " never served port " + port);
    }

    private void awaitServing(Agent a) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            try (java.net.Socket s = new java.net.Socket("127.0.0.1", a.port())) {
                return;
            } catch (java.io.IOException notYet) {
                Thread.sleep(20);
            }
        }
        throw new AssertionError(a.name() + " never served " + a.url());
    }

    /** The first row of {@code sql} once there is one (the agents work on their own threads). */
    private static String await(Path db, String sql) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            String v = text(db, sql);
            if (v != null) return v;
            Thread.sleep(20);
        }
        throw new AssertionError("no row for " + sql);
    }

    private static String text(Path db, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
             ResultSet rs = c.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    record Run(int code, String out, String err) { }

    private Run cli(Agent a, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Launch launch = new Launch(Map.of("HOME", a.db().getParent().toString()),
                () -> new DumbTerminal(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()),
                Clock.systemUTC(), false, dev.hmpagent.runtime.LlmChain::client, (name, handler) -> { });
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--config", a.config().toString(), "--db", a.db().toString(), "--base-url",
                a.model().baseUrl()));
        return new Run(cl.execute(all.toArray(String[]::new)), out.toString(), err.toString());
    }
}
