package dev.hmpagent.a2a.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.commands.Approver;
import dev.hmpagent.commands.CommandExecutor;
import dev.hmpagent.commands.CommandGate;
import dev.hmpagent.commands.Completions;
import dev.hmpagent.commands.catalogue.Catalogue;
import dev.hmpagent.commands.catalogue.CommandOptions;
import dev.hmpagent.config.A2aSection;
import dev.hmpagent.safety.OperationListener;
import dev.hmpagent.safety.StopSignal;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code peer_message} as the agent runs it: through the executor and the [a2a] gate, sent off the tick to a fake A2A
 * peer over real HTTP, its answer written as the row's result, its outgoing note's delivery moved on.
 */
class PeerMessageTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    final Completions completions = new Completions();
    final CountDownLatch arrived = new CountDownLatch(1);
    Store store;
    PeerSends sends;

    @BeforeEach
    void open() {
        store = Store.open(dir.resolve("agent.db"), clock);
        completions.onArrival(arrived::countDown);
        sends = new PeerSends(new A2aClient(Duration.ofSeconds(20), Map.of("HELPER_TOKEN", "s3cret")::get),
                (noteId, status) -> {
                    try (Store own = Store.open(dir.resolve("agent.db"), clock)) {
                        own.tables().peers().deliver(noteId, status);
                    }
                });
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void an_allowed_peer_is_sent_the_message_with_the_trace_and_its_answer_is_the_rows_result() throws Exception {
        try (FakePeer peer = new FakePeer().token("s3cret")) {
            addPeer("helper", peer, "HELPER_TOKEN", "");
            long row = runMessage(rules(List.of("helper"), List.of()), "helper", "hello");

            assertThat(arrived.await(10, TimeUnit.SECONDS)).isTrue();
            record(row);
            assertThat(row(row)).containsExactly("ok", "helper answered:\necho: hello", null);
            FakePeer.Received post = peer.posts().get(0);
            assertThat(post.headers()).containsEntry("a2a-version", "1.0").containsEntry("authorization", "Bearer s3cret");
            String self = store.tables().identity().own();
            assertThat(trace(post)).containsExactly(self);
            assertThat(notes()).containsExactly(Arrays.asList("hello", "helper", "delivered"));
        }
    }

    @Test
    void a_message_sent_while_answering_a_peers_task_carries_that_tasks_trace_then_this_agents_id() throws Exception {
        try (FakePeer peer = new FakePeer()) {
            addPeer("helper", peer, "", "child");   // a child this agent spawned: allowed though named nowhere
            long note = store.tables().notes().add("what would you explore?", "peer", 0, null);
            store.tables().notes().markRead(List.of(note), 1);
            store.tables().a2aTasks().add("task-9", "ctx-1", note, "caller", "{}", "[\"far\",\"near\"]");
            long row = runMessage(A2aSection.none(), "helper", "help me");

            assertThat(arrived.await(10, TimeUnit.SECONDS)).isTrue();
            record(row);
            assertThat(row(row).get(0)).isEqualTo("ok");
            assertThat(trace(peer.posts().get(0))).containsExactly("far", "near", store.tables().identity().own());
        }
    }

    @Test
    void a_peer_named_nowhere_is_refused_headless_with_the_line_that_allows_it_and_nothing_is_sent() throws Exception {
        try (FakePeer peer = new FakePeer()) {
            addPeer("helper", peer, "", "");
            long row = runMessage(A2aSection.none(), "helper", "hello");

            List<Object> r = row(row);
            assertThat(r.get(0)).isEqualTo("error");
            assertThat((String) r.get(1)).contains("nobody is at a terminal to approve it")
                    .contains("add \"helper\" to [a2a] allow of agent.toml");
            assertThat(r.get(2)).isEqualTo("EPERM");
            assertThat(peer.posts()).isEmpty();
            assertThat(notes()).as("nothing queued").isEmpty();
        }
    }

    @Test
    void deny_beats_allow_and_a_denied_peer_is_refused() throws Exception {
        try (FakePeer peer = new FakePeer()) {
            addPeer("helper", peer, "", "child");
            long row = runMessage(rules(List.of("helper"), List.of("helper")), "helper", "hello");

            assertThat(row(row)).containsExactly("error", "peer_message refused: peer helper is in [a2a] deny of agent.toml (\"helper\"); do "
                    + "not send to it again", "EPERM");
            assertThat(peer.posts()).isEmpty();
        }
    }

    @Test
    void a_halt_aborts_the_send_asks_the_peer_to_cancel_its_task_and_ends_the_row_ehalt() throws Exception {
        try (FakePeer peer = new FakePeer().streaming().hanging()) {
            addPeer("helper", peer, "", "");
            long row = runMessage(rules(List.of("helper"), List.of()), "helper", "take your time");
            assertThat(peer.hanging.await(10, TimeUnit.SECONDS)).as("the peer named its task and holds").isTrue();
            assertThat(sends.sending(row).orElseThrow().awaitTask(Duration.ofSeconds(10))).as("the client read it").isTrue();

            assertThat(sends.cancelAll()).isEqualTo(1);

            assertThat(arrived.await(10, TimeUnit.SECONDS)).isTrue();
            record(row);
            assertThat(row(row)).containsExactly("error", "peer_message: the send to helper was stopped by a halt; its "
                    + "task t-1 was cancelled there", "EHALT");
            assertThat(peer.posts()).extracting(p -> p.body().path("method").asText())
                    .containsExactly("SendStreamingMessage", "CancelTask");
            assertThat(peer.posts().get(1).body().path("params").path("id").asText()).isEqualTo("t-1");
            assertThat(notes()).containsExactly(Arrays.asList("take your time", "helper", "failed"));
        }
    }

    @Test
    void a_peer_that_is_down_is_one_line_and_an_offline_error_not_a_hang() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Map<String, String> fields = new LinkedHashMap<>(Map.of("name", "gone", "url", "http://127.0.0.1:" + port));
        store.tables().peers().add("gone", fields);
        long row = runMessage(rules(List.of("gone"), List.of()), "gone", "anyone there?");

        assertThat(arrived.await(10, TimeUnit.SECONDS)).as("within the connect timeout").isTrue();
        record(row);
        List<Object> r = row(row);
        assertThat(r.get(0)).isEqualTo("error");
        assertThat((String) r.get(1)).startsWith("peer_message: gone not reachable at http://127.0.0.1:" + port
                + "/.well-known/agent-card.json (").doesNotContain("\n");
        assertThat(r.get(2)).isEqualTo("EOFFLINE");
        assertThat(notes()).containsExactly(Arrays.asList("anyone there?", "gone", "failed"));
    }

    private static A2aSection rules(List<String> allow, List<String> deny) {
        A2aSection none = A2aSection.none();
        return new A2aSection("", List.of(), allow, List.of(), deny, none.maxMessageBytes(), none.ratePerMinute(),
                none.maxDepth(), none.maxChildren());
    }

    private void addPeer(String name, FakePeer peer, String tokenEnv, String tags) {
        Map<String, String> fields = new LinkedHashMap<>(Map.of("name", name, "url", peer.url(), "card", peer.cardJson()));
        if (!tokenEnv.isEmpty()) fields.put("token_env", tokenEnv);
        if (!tags.isEmpty()) fields.put("tags", tags);
        store.tables().peers().add(name, fields);
    }

    /** Queues one {@code peer_message} as tick 1 wrote it and runs it as the executor does, headless. */
    private long runMessage(A2aSection rules, String peer, String text) {
        CommandExecutor executor = executor(rules);
        long id = store.tables().processLog().enqueue(1, "peer_message", "c-1", "{\"cmd_id\":\"c-1\",\"type\":"
                + "\"peer_message\",\"args\":{\"peer\":\"" + peer + "\",\"text\":\"" + text + "\"}}", "fp");
        executor.runPending(1, "m", StopSignal.over(store).since(), () -> false, r -> { });
        return id;
    }

    private CommandExecutor executor(A2aSection rules) {
        CommandGate gate = new A2aGate(rules, store.tables().peers());
        return new CommandExecutor(store, Catalogue.builtIn(CommandOptions.DEFAULTS, sends), new ObjectMapper(), gate,
                Approver.NOBODY, OperationListener.NONE, completions);
    }

    private void record(long row) {
        executor(A2aSection.none()).recordResults(r -> { });
    }

    private List<Object> row(long id) {
        return rows("SELECT status, result, error_code FROM process_log WHERE id = " + id).get(0);
    }

    private List<List<Object>> notes() {
        return rows("SELECT text, peer_id, delivery_status FROM notes WHERE peer_id IS NOT NULL ORDER BY id");
    }

    /** The rows of {@code sql}, read over a connection of the test's own. */
    private List<List<Object>> rows(String sql) {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("agent.db"));
             ResultSet rs = c.createStatement().executeQuery(sql)) {
            List<List<Object>> out = new ArrayList<>();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) row.add(rs.getObject(i));
                out.add(row);
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private static List<String> trace(FakePeer.Received post) {
        List<String> out = new ArrayList<>();
        for (JsonNode id : post.body().path("params").path("message").path("metadata").path("trace")) out.add(id.asText());
        return out;
    }
}
