package dev.hmpagent.a2a.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hmpagent.a2a.A2aWire;
import dev.hmpagent.a2a.Trace;
import dev.hmpagent.config.A2aSection;
import dev.hmpagent.config.ConfigException;
import dev.hmpagent.store.NoteRow;
import dev.hmpagent.store.Store;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The A2A server on a real socket and a real file, the agent's side played on the file as note_reply leaves it. */
class A2aServerTest {
    @TempDir Path dir;
    Path db;
    Store agent;
    A2aServer server;
    final HttpClient http = HttpClient.newHttpClient();
    final List<A2aServer> started = new ArrayList<>();

    @BeforeEach
    void open() {
        db = dir.resolve("agent.db");
        agent = Store.open(db, Clock.systemUTC());
        server = start(A2aSection.none().listening("127.0.0.1:0"), Map.of());
    }

    @AfterEach
    void close() {
        started.forEach(A2aServer::close);
        agent.close();
    }

    private A2aServer start(A2aSection config, Map<String, String> env) {
        A2aServer s = A2aServer.start(new A2aServer.Settings(db, Clock.systemUTC(), config, env, "scout", "1.2.3",
                Duration.ofSeconds(20)));
        started.add(s);
        return s;
    }

    private HttpResponse<String> post(A2aServer s, String body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(s.url())).POST(HttpRequest.BodyPublishers.ofString(body));
        List<String> h = new ArrayList<>(List.of("Content-Type", "application/json", "A2A-Version", "1.0"));
        h.addAll(List.of(headers));
        for (int i = 0; i < h.size(); i += 2) b.setHeader(h.get(i), h.get(i + 1));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode rpc(String method, String params, String... headers) throws Exception {
        return A2aWire.JSON.readTree(post(server, "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"" + method
                + "\", \"params\": " + params + "}", headers).body());
    }

    private static String message(String text, String extra) {
        return "{\"message\": {\"messageId\": \"m-1\", \"role\": \"ROLE_USER\", \"parts\": [{\"text\": \"" + text + "\"}]"
                + extra + "}";
    }

    /** The agent reads the note (the task is working), then answers it as note_reply does. */
    private void answer(String taskId, String text) {
        agent.inTransaction(() -> {
            var t = agent.tables().a2aTasks().get(taskId).orElseThrow();
            agent.tables().notes().markRead(List.of(t.noteId()), 1);
            agent.tables().a2aTasks().end(taskId, "completed", text, null);
        });
    }

    private static <T> T eventually(Supplier<T> value, java.util.function.Predicate<T> done) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        T v = value.get();
        while (!done.test(v) && System.nanoTime() < deadline) {
            Thread.sleep(10);
            v = value.get();
        }
        return v;
    }

    @Test
    void the_card_says_where_json_rpc_is_served_that_it_streams_and_needs_no_token_on_the_loopback() throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(server.url() + ".well-known/agent-card.json"))
                .build(), HttpResponse.BodyHandlers.ofString());
        JsonNode card = A2aWire.JSON.readTree(r.body());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(card.path("name").asText()).isEqualTo("scout");
        assertThat(card.path("supportedInterfaces").get(0).path("protocolBinding").asText()).isEqualTo("JSONRPC");
        assertThat(card.path("supportedInterfaces").get(0).path("protocolVersion").asText()).isEqualTo("1.0");
        assertThat(card.path("supportedInterfaces").get(0).path("url").asText()).isEqualTo(server.url());
        assertThat(card.path("capabilities").path("streaming").asBoolean()).isTrue();
        assertThat(card.has("securitySchemes")).isFalse();
        assertThat(card.path("skills").size()).isEqualTo(2);
    }

    @Test
    void a_message_becomes_a_peers_note_and_a_task_and_wakes_the_agent() throws Exception {
        JsonNode r = rpc("SendMessage", message("what is the disk usage?", "") + ", \"configuration\":"
                + " {\"returnImmediately\": true}}");
        JsonNode task = r.path("result").path("task");
        assertThat(task.path("status").path("state").asText()).isEqualTo("TASK_STATE_SUBMITTED");
        var row = agent.tables().a2aTasks().get(task.path("id").asText()).orElseThrow();
        NoteRow note = agent.tables().notes().get(row.noteId()).orElseThrow();
        assertThat(note.source()).isEqualTo("peer");
        assertThat(note.tags()).isEqualTo("a2a");
        assertThat(note.text()).startsWith("A2A message from peer loopback (task " + row.id() + ")")
                .endsWith("\nwhat is the disk usage?");
        assertThat(agent.tables().controlRequests().after(0)).extracting(c -> c.kind()).containsExactly("note");
        assertThat(row.contextId()).isEqualTo(task.path("contextId").asText()).isNotBlank();
    }

    @Test
    void a_blocking_send_returns_the_agents_answer_as_the_status_message_and_the_artifact() throws Exception {
        CompletableFuture<HttpResponse<String>> sent = http.sendAsync(HttpRequest.newBuilder(URI.create(server.url()))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\": \"2.0\", \"id\": \"a\", \"method\":"
                        + " \"SendMessage\", \"params\": " + message("ping", "") + "}}")).build(),
                HttpResponse.BodyHandlers.ofString());
        var tasks = eventually(() -> agent.tables().a2aTasks().list("", "", "", "", 5), l -> !l.isEmpty());
        answer(tasks.get(0).id(), "pong");

        JsonNode task = A2aWire.JSON.readTree(sent.get().body()).path("result").path("task");
        assertThat(task.path("status").path("state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(task.path("status").path("message").path("role").asText()).isEqualTo("ROLE_AGENT");
        assertThat(task.path("status").path("message").path("parts").get(0).path("text").asText()).isEqualTo("pong");
        assertThat(task.path("artifacts").get(0).path("parts").get(0).path("text").asText()).isEqualTo("pong");
        assertThat(task.path("history").get(0).path("parts").get(0).path("text").asText()).isEqualTo("ping");
    }

    @Test
    void a_stream_says_submitted_working_the_answer_and_completed_then_ends() throws Exception {
        CompletableFuture<HttpResponse<String>> sent = http.sendAsync(HttpRequest.newBuilder(URI.create(server.url()))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\":"
                        + " \"SendStreamingMessage\", \"params\": " + message("ping", "") + "}}")).build(),
                HttpResponse.BodyHandlers.ofString());
        var tasks = eventually(() -> agent.tables().a2aTasks().list("", "", "", "", 5), l -> !l.isEmpty());
        String id = tasks.get(0).id();
        agent.inTransaction(() -> agent.tables().notes().markRead(List.of(tasks.get(0).noteId()), 1));
        eventually(() -> agent.tables().a2aTasks().get(id).orElseThrow().shownState(), s -> s.equals("working"));
        Thread.sleep(3 * Rpc.POLL_MILLIS);   // the stream sees "working" on its own before the answer lands
        answer(id, "pong");

        HttpResponse<String> r = sent.get();
        assertThat(r.headers().firstValue("Content-Type")).contains("text/event-stream");
        List<JsonNode> events = new ArrayList<>();
        for (String line : r.body().split("\n")) {
            if (line.startsWith("data: ")) events.add(A2aWire.JSON.readTree(line.substring(6)).path("result"));
        }
        assertThat(events.get(0).path("task").path("status").path("state").asText()).isEqualTo("TASK_STATE_SUBMITTED");
        assertThat(events.get(1).path("statusUpdate").path("status").path("state").asText()).isEqualTo("TASK_STATE_WORKING");
        assertThat(events.get(2).path("artifactUpdate").path("artifact").path("parts").get(0).path("text").asText())
                .isEqualTo("pong");
        assertThat(events.get(3).path("statusUpdate").path("status").path("state").asText())
                .isEqualTo("TASK_STATE_COMPLETED");
        assertThat(events).hasSize(4);
    }

    @Test
    void a_message_to_a_halted_agent_is_kept_and_the_blocking_send_returns_at_once_saying_why() throws Exception {
        new dev.hmpagent.safety.SafetyControl(agent).halt("maintenance", dev.hmpagent.store.Requester.thisProcess());
        JsonNode task = rpc("SendMessage", message("are you there?", "") + "}").path("result").path("task");
        assertThat(task.path("status").path("state").asText()).isEqualTo("TASK_STATE_SUBMITTED");
        assertThat(task.path("status").path("message").path("parts").get(0).path("text").asText())
                .startsWith("the agent is not thinking now (").contains("the message waits");
        assertThat(agent.tables().notes().list(true, "peer", "", 5)).hasSize(1);
    }

    @Test
    void get_list_and_cancel_with_the_protocols_errors() throws Exception {
        String id = rpc("SendMessage", message("a", "") + ", \"configuration\": {\"returnImmediately\": true}}")
                .path("result").path("task").path("id").asText();
        assertThat(rpc("GetTask", "{\"id\": \"" + id + "\"}").path("result").path("id").asText()).isEqualTo(id);
        assertThat(rpc("GetTask", "{\"id\": \"nope\"}").path("error").path("code").asInt()).isEqualTo(-32001);
        assertThat(rpc("ListTasks", "{\"status\": \"TASK_STATE_SUBMITTED\"}").path("result").path("tasks").size())
                .isEqualTo(1);

        JsonNode canceled = rpc("CancelTask", "{\"id\": \"" + id + "\"}").path("result");
        assertThat(canceled.path("status").path("state").asText()).isEqualTo("TASK_STATE_CANCELED");
        long note = agent.tables().a2aTasks().get(id).orElseThrow().noteId();
        assertThat(agent.tables().notes().get(note).orElseThrow().read()).as("the agent does not answer it").isTrue();
        assertThat(rpc("CancelTask", "{\"id\": \"" + id + "\"}").path("error").path("code").asInt()).isEqualTo(-32002);
        assertThat(rpc("SubscribeToTask", "{\"id\": \"" + id + "\"}").path("error").path("code").asInt())
                .isEqualTo(-32004);
        assertThat(rpc("message/send", "{}").path("error").path("code").asInt()).isEqualTo(-32601);
        assertThat(rpc("SendMessage", "{\"message\": {}}").path("error").path("code").asInt()).isEqualTo(-32602);
    }

    @Test
    void version_content_type_size_and_json_are_checked_before_anything_is_stored() throws Exception {
        HttpResponse<String> noVersion = http.send(HttpRequest.newBuilder(URI.create(server.url()))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(A2aWire.JSON.readTree(noVersion.body()).path("error").path("code").asInt()).isEqualTo(-32009);
        assertThat(A2aWire.JSON.readTree(post(server, "{}", "Content-Type", "text/plain").body()).path("error")
                .path("code").asInt()).isEqualTo(-32005);
        assertThat(A2aWire.JSON.readTree(post(server, "{not json").body()).path("error").path("code").asInt())
                .isEqualTo(-32700);
        assertThat(post(server, "x".repeat(A2aSection.DEFAULT_MAX_MESSAGE_BYTES + 1)).statusCode()).isEqualTo(413);
        assertThat(agent.tables().a2aTasks().list("", "", "", "", 5)).isEmpty();
    }

    @Test
    void a_trace_holding_this_agent_is_a_loop_and_rejected_without_a_note() throws Exception {
        String self = agent.inTransaction(() -> agent.tables().identity().own());
        JsonNode task = rpc("SendMessage", message("ping back", ", \"metadata\": {\"trace\": [\"other\", \"" + self
                + "\"]}") + "}").path("result").path("task");
        assertThat(task.path("status").path("state").asText()).isEqualTo("TASK_STATE_REJECTED");
        assertThat(task.path("status").path("message").path("parts").get(0).path("text").asText())
                .startsWith("a loop between agents");
        assertThat(agent.tables().notes().list(false, "peer", "", 5)).isEmpty();
        assertThat(new Trace(List.of("a", "b", "c", "d", "e")).refusal(self, 4)).isPresent();
    }

    @Test
    void tokens_name_the_caller_who_sees_only_its_own_tasks_and_no_token_is_401() throws Exception {
        A2aServer guarded = start(A2aSection.none().listening("127.0.0.1:0").withTokens(List.of("ALICE_TOKEN",
                "BOB_TOKEN")), Map.of("ALICE_TOKEN", "a-secret", "BOB_TOKEN", "b-secret"));
        String body = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"SendMessage\", \"params\": " + message("hi", "")
                + ", \"configuration\": {\"returnImmediately\": true}}}";
        assertThat(post(guarded, body).statusCode()).isEqualTo(401);
        assertThat(post(guarded, body, "Authorization", "Bearer wrong").statusCode()).isEqualTo(401);
        String id = A2aWire.JSON.readTree(post(guarded, body, "Authorization", "Bearer a-secret").body()).path("result")
                .path("task").path("id").asText();
        assertThat(agent.tables().a2aTasks().get(id).orElseThrow().caller()).isEqualTo("ALICE_TOKEN");
        String get = "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"GetTask\", \"params\": {\"id\": \"" + id + "\"}}";
        assertThat(A2aWire.JSON.readTree(post(guarded, get, "Authorization", "Bearer b-secret").body()).path("error")
                .path("code").asInt()).isEqualTo(-32001);
        JsonNode card = A2aWire.JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(guarded.url()
                + ".well-known/agent-card.json")).build(), HttpResponse.BodyHandlers.ofString()).body());
        assertThat(card.path("securitySchemes").path("bearer").path("httpAuthSecurityScheme").path("scheme").asText())
                .isEqualTo("Bearer");
        assertThat(guarded.describe()).contains("ALICE_TOKEN, BOB_TOKEN").doesNotContain("a-secret");
    }

    @Test
    void another_address_needs_tokens_and_a_named_token_must_be_set() {
        assertThatThrownBy(() -> start(A2aSection.none().listening("0.0.0.0:0"), Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("not a loopback address");
        assertThatThrownBy(() -> start(A2aSection.none().listening("127.0.0.1:0").withTokens(List.of("MISSING")),
                Map.of())).isInstanceOf(ConfigException.class).hasMessageContaining("MISSING, which is not set");
        assertThatThrownBy(() -> start(A2aSection.none().listening("localhost"), Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("is not host:port");
    }

    @Test
    void a_caller_over_its_rate_gets_429_and_its_message_is_not_taken() throws Exception {
        A2aServer slow = start(new A2aSection("127.0.0.1:0", List.of(), List.of(), List.of(), List.of(),
                A2aSection.DEFAULT_MAX_MESSAGE_BYTES, 2, 4, 3), Map.of());
        String body = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"SendMessage\", \"params\": " + message("hi", "")
                + ", \"configuration\": {\"returnImmediately\": true}}}";
        List<Integer> codes = new ArrayList<>();
        for (int i = 0; i < 3; i++) codes.add(post(slow, body).statusCode());
        assertThat(codes).containsExactly(200, 200, 429);
        assertThat(agent.tables().a2aTasks().list("", "", "", "", 5)).hasSize(2);
    }

    @Test
    void a_callers_work_counts_against_the_budget_it_causes_and_past_its_day_its_messages_are_refused() throws Exception {
        A2aServer capped = start(new A2aSection("127.0.0.1:0", List.of(), List.of(), List.of(), List.of(),
                A2aSection.DEFAULT_MAX_MESSAGE_BYTES, 100, 4, 3, 1_000), Map.of());
        String body = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"SendMessage\", \"params\": " + message("hi", "")
                + ", \"configuration\": {\"returnImmediately\": true}}}";
        String id = A2aWire.JSON.readTree(post(capped, body).body()).path("result").path("task").path("id").asText();
        // the agent thinks about it: two calls, 1,200 tokens in all, then answers
        agent.inTransaction(() -> {
            for (int i = 0; i < 2; i++) {
                agent.tables().llmCalls().insert(1, new dev.hmpagent.store.LlmCall(dev.hmpagent.store.LlmCall.Purpose.MAIN,
                        java.time.Instant.now(), "m", "e", 500, 0, 100, false, 10, dev.hmpagent.store.LlmCall.Outcome.OK, ""));
            }
        });
        answer(id, "done");
        JsonNode got = A2aWire.JSON.readTree(post(capped, "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"GetTask\","
                + " \"params\": {\"id\": \"" + id + "\"}}").body()).path("result");
        assertThat(got.path("metadata").path("tokens").asLong()).isEqualTo(1_200);

        HttpResponse<String> refused = post(capped, body);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(A2aWire.JSON.readTree(refused.body()).path("error").path("message").asText())
                .contains("cost this agent 1200 tokens in the last 24 hours").contains("a2a.caller_tokens_per_day = 1000");
        assertThat(agent.tables().a2aTasks().list("", "", "", "", 5)).hasSize(1);
    }

    @Test
    void a_task_the_agent_had_read_but_not_answered_when_it_stopped_is_read_anew_after_a_restart() throws Exception {
        String id = rpc("SendMessage", message("long job", "") + ", \"configuration\": {\"returnImmediately\": true}}")
                .path("result").path("task").path("id").asText();
        long note = agent.tables().a2aTasks().get(id).orElseThrow().noteId();
        agent.inTransaction(() -> agent.tables().notes().markRead(List.of(note), 1));
        server.close();
        started.remove(server);

        A2aServer again = start(A2aSection.none().listening("127.0.0.1:0"), Map.of());
        assertThat(again.resumed()).isEqualTo(1);
        long anew = agent.tables().a2aTasks().get(id).orElseThrow().noteId();
        assertThat(anew).isGreaterThan(note);
        NoteRow handed = agent.tables().notes().get(anew).orElseThrow();
        assertThat(handed.read()).isFalse();
        assertThat(handed.text()).startsWith("(again: this agent stopped before it answered)\nA2A message from peer")
                .endsWith("long job");
        assertThat(again.describe()).contains("1 task(s) in flight at the last stop are read anew");
    }
}
