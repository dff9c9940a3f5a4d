package dev.hmpagent.a2a.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.hmpagent.a2a.Trace;
import dev.hmpagent.commands.catalogue.PeerLink;
import java.io.BufferedReader;
import java.io.StringReader;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The A2A client against a fake peer over real HTTP: the card it checks, the requests it sends, the answers it reads. */
class A2aClientTest {
    final A2aClient client = new A2aClient(Duration.ofSeconds(20), Map.of("PEER_TOKEN", "s3cret", "BAD", "nope")::get);

    @Test
    void a_card_is_fetched_from_the_well_known_path_and_checked() throws Exception {
        try (FakePeer peer = new FakePeer().streaming().token("s3cret")) {
            AgentCard card = client.fetchCard(peer.url() + "/");

            assertThat(peer.received).singleElement().satisfies(r -> {
                assertThat(r.path()).isEqualTo("/.well-known/agent-card.json");
                assertThat(r.headers()).as("a card is fetched without a token").doesNotContainKey("authorization");
            });
            assertThat(card.name()).isEqualTo("Echo");
            assertThat(card.endpoint()).isEqualTo(peer.url() + "/");
            assertThat(card.streaming()).isTrue();
            assertThat(card.needsToken()).isTrue();
            assertThat(card.describe()).isEqualTo("Echo: Echoes the text\nskills: echo (Echo): Echo text back\n"
                    + "streaming: yes; token: needed (bearer); A2A 1.x JSON-RPC at " + peer.url() + "/");
        }
    }

    @Test
    void a_card_without_a_json_rpc_interface_of_a2a_1_is_refused_in_one_line() throws Exception {
        String legacy = "{\"name\":\"old\",\"url\":\"http://x/\",\"preferredTransport\":\"JSONRPC\"}";
        String grpcOnly = "{\"supportedInterfaces\":[{\"url\":\"http://x/\",\"protocolBinding\":\"GRPC\",\"protocolVersion\":\"1.0\"}]}";
        String v03 = "{\"supportedInterfaces\":[{\"url\":\"http://x/\",\"protocolBinding\":\"JSONRPC\",\"protocolVersion\":\"0.3\"}]}";
        for (String json : List.of(legacy, grpcOnly, v03, "{}")) {
            assertThatThrownBy(() -> AgentCard.parse(json, "http://x/.well-known/agent-card.json"))
                    .isInstanceOf(PeerLink.Failure.class)
                    .hasMessage("the agent card at http://x/.well-known/agent-card.json offers no A2A 1.x JSON-RPC "
                            + "interface (supportedInterfaces[] with url, protocolBinding \"JSONRPC\", protocolVersion "
                            + "\"1.0\"); it may speak an older A2A, which this agent does not");
        }
        try (FakePeer peer = new FakePeer().card("not json")) {
            assertThatThrownBy(() -> client.fetchCard(peer.url()))
                    .isInstanceOf(PeerLink.Failure.class).hasMessageStartingWith("the agent card at " + peer.url()
                            + "/.well-known/agent-card.json is not JSON");
        }
    }

    @Test
    void send_message_carries_the_wire_headers_the_token_and_the_trace_and_reads_the_completed_task() throws Exception {
        try (FakePeer peer = new FakePeer().token("s3cret")) {
            AgentCard card = client.fetchCard(peer.url());
            Answer answer = client.send(card, "PEER_TOKEN", "hello", new Trace(List.of("a-1", "me")).array(),
                    new Sending());

            assertThat(answer.answered()).isTrue();
            assertThat(answer.text()).isEqualTo("echo: hello");
            assertThat(answer.taskId()).isEqualTo("t-1");
            FakePeer.Received post = peer.posts().get(0);
            assertThat(post.headers()).containsEntry("a2a-version", "1.0")
                    .containsEntry("content-type", "application/json")
                    .containsEntry("authorization", "Bearer s3cret");
            assertThat(post.body().path("method").asText()).isEqualTo("SendMessage");
            assertThat(post.body().path("jsonrpc").asText()).isEqualTo("2.0");
            assertThat(post.body().path("params").path("message").path("role").asText()).isEqualTo("ROLE_USER");
            assertThat(post.body().path("params").path("message").path("metadata").path("trace"))
                    .isEqualTo(JsonNodeFactory.instance.arrayNode().add("a-1").add("me"));
        }
    }

    @Test
    void a_streaming_peer_gets_send_streaming_message_and_the_answer_is_read_from_its_events() throws Exception {
        try (FakePeer peer = new FakePeer().streaming()) {
            AgentCard card = client.fetchCard(peer.url());
            Sending sending = new Sending();
            Answer answer = client.send(card, "", "hi", new Trace(List.of("me")).array(), sending);

            assertThat(answer.state()).isEqualTo("TASK_STATE_COMPLETED");
            assertThat(answer.text()).isEqualTo("streamed: hi");
            assertThat(sending.taskId()).contains("t-1");
            FakePeer.Received post = peer.posts().get(0);
            assertThat(post.body().path("method").asText()).isEqualTo("SendStreamingMessage");
            assertThat(post.headers()).containsEntry("accept", "text/event-stream").doesNotContainKey("authorization");
        }
    }

    @Test
    void a_wrong_token_is_one_line_saying_the_peer_refused() throws Exception {
        try (FakePeer peer = new FakePeer().token("s3cret")) {
            AgentCard card = client.fetchCard(peer.url());
            assertThatThrownBy(() -> client.send(card, "BAD", "hi", Trace.empty().array(), new Sending()))
                    .isInstanceOf(PeerLink.Failure.class)
                    .hasMessage("refused with HTTP 401: it did not accept the token in BAD; check what that variable "
                            + "holds")
                    .satisfies(e -> assertThat(((PeerLink.Failure) e).code()).isEqualTo("EPERM"));
            assertThatThrownBy(() -> client.send(card, "UNSET", "hi", Trace.empty().array(), new Sending()))
                    .hasMessage("the peer's token variable UNSET is not set in this agent's environment; export it and "
                            + "start the agent again");
            assertThat(catchThrowable(() -> client.send(card, "", "hi", Trace.empty().array(), new Sending())))
                    .hasMessage("refused with HTTP 401: it needs a bearer token; name its variable (agent peers add "
                            + "NAME URL --token-env VAR)");
            assertThat(peer.posts()).as("no request while the token's variable is unset").hasSize(2);
        }
    }

    @Test
    void a_peer_that_is_down_is_one_line_offline() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        String url = "http://127.0.0.1:" + port;
        assertThatThrownBy(() -> client.fetchCard(url)).isInstanceOf(PeerLink.Failure.class)
                .hasMessageStartingWith("not reachable at " + url + "/.well-known/agent-card.json (")
                .satisfies(e -> assertThat(((PeerLink.Failure) e).code()).isEqualTo("EOFFLINE"))
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void sse_events_are_read_from_data_lines_up_to_a_blank_line_skipping_comments() throws Exception {
        SseReader r = new SseReader(new BufferedReader(new StringReader(
                ": ping\r\n\r\ndata: {\"a\":1}\r\n\r\nevent: error\ndata: x\ndata: y\n\ndata: last")));
        assertThat(r.next()).isEqualTo(new SseReader.Event("message", "{\"a\":1}"));
        assertThat(r.next()).isEqualTo(new SseReader.Event("error", "x\ny"));
        assertThat(r.next()).isEqualTo(new SseReader.Event("message", "last"));
        assertThat(r.next()).isNull();
    }
}
