package dev.hmpagent.llm.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hmpagent.llm.CallCancel;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.wire.HttpCalls;
import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.Message;
import dev.hmpagent.llm.RetryableLlmException;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.llm.TokenEstimator;
import dev.hmpagent.llm.Usage;
import dev.hmpagent.testing.FakeAnthropicServer;
import dev.hmpagent.testing.FakeAnthropicServer.Received;
import mockwebserver3.MockResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.hmpagent.testing.FakeAnthropicServer.MODEL;
import static dev.hmpagent.testing.FakeAnthropicServer.blockStop;
import static dev.hmpagent.testing.FakeAnthropicServer.event;
import static dev.hmpagent.testing.FakeAnthropicServer.messageDelta;
import static dev.hmpagent.testing.FakeAnthropicServer.messageStart;
import static dev.hmpagent.testing.FakeAnthropicServer.messageStop;
import static dev.hmpagent.testing.FakeAnthropicServer.ping;
import static dev.hmpagent.testing.FakeAnthropicServer.textBlockStart;
import static dev.hmpagent.testing.FakeAnthropicServer.textDelta;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The client against a fake Messages API: what it sends, how it reads streams and whole replies, cancel, deadline, probe. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AnthropicClientTest {
    private static final String KEY = "sk-ant-test-secret-123";
    private static final LlmRequest REQUEST = new LlmRequest(
            List.of(Message.system("You are terse."), Message.user("Say hello.")), 0.2, 64);
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2025-01-01T00:00:00Z"), ZoneOffset.UTC);

    private final FakeAnthropicServer server;
    private final List<String> deltas = new CopyOnWriteArrayList<>();
    private final StreamListener recordDeltas = deltas::add;

    AnthropicClientTest() throws IOException {
        server = new FakeAnthropicServer();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private AnthropicClient client(boolean stream) {
        return client(server.baseUrl(), KEY, stream, AnthropicSettings.DEFAULT_CALL_DEADLINE);
    }

    private static AnthropicClient client(String baseUrl, String key, boolean stream, Duration callDeadline) {
        AnthropicSettings settings = new AnthropicSettings(baseUrl, key, MODEL, stream, Duration.ofSeconds(5),
                Duration.ofSeconds(30), callDeadline);
        return new AnthropicClient(settings, HttpCalls.constant(AnthropicClient.httpClient(settings)), CLOCK);
    }

    private LlmException failure(AnthropicClient client) {
        return catchThrowableOfType(LlmException.class, () -> client.complete(REQUEST, recordDeltas));
    }

    // ---- streaming -----------------------------------------------------------------------------

    @Test
    void the_documented_sample_stream_gives_the_text_the_model_the_finish_reason_and_the_usage() {
        server.events(messageStart(25), textBlockStart(0), ping(), textDelta(0, "Hello"), textDelta(0, "!"),
                textDelta(0, " How can I help?"), blockStop(0), messageDelta("end_turn", 15), messageStop());

        Completion completion = client(true).complete(REQUEST, recordDeltas);

        assertThat(completion).isEqualTo(new Completion("Hello! How can I help?", new Usage(25, 15, false, 0), MODEL,
                "stop", false));
        assertThat(deltas).containsExactly("Hello", "!", " How can I help?");
    }

    @Test
    void a_text_delta_of_more_than_1_mb_keeps_the_text_that_fit_and_ends_the_reply_there() {
        // issue 20 item 5: an event over 1 MB was a retryable bad_response, retried as an outage
        server.events(messageStart(25), textBlockStart(0), textDelta(0, "ok "), textDelta(0, "w".repeat(1_500_000)),
                blockStop(0), messageDelta("end_turn", 15), messageStop());

        Completion c = client(true).complete(REQUEST, recordDeltas);

        assertThat(c.finishReason()).isEqualTo(Completion.EVENT_CUT);
        assertThat(c.text()).startsWith("ok www").matches("ok w+");
        assertThat(c.text().length()).isBetween(1024 * 1024 - 200, 1024 * 1024);
        assertThat(server.requestCount()).isEqualTo(1);
    }

    @Test
    void a_request_goes_to_v1_messages_with_the_key_as_x_api_key_and_the_api_version() throws Exception {
        server.streamed("Hi", 5, 1);

        client(true).complete(REQUEST, recordDeltas);

        Received sent = server.take();
        assertThat(sent.request().getMethod()).isEqualTo("POST");
        assertThat(sent.path()).isEqualTo("/v1/messages");
        assertThat(sent.header("x-api-key")).isEqualTo(KEY);
        assertThat(sent.header("anthropic-version")).isEqualTo("2023-06-01");
        assertThat(sent.header("content-type")).isEqualTo("application/json");
        assertThat(sent.header("Authorization")).as("the key goes only as x-api-key").isNull();
    }

    @Test
    void without_a_key_no_key_header_is_sent_at_all() throws Exception {
        server.streamed("Hi", 5, 1);

        client(server.baseUrl(), "", true, Duration.ofSeconds(30)).complete(REQUEST, recordDeltas);

        Received sent = server.take();
        assertThat(sent.header("x-api-key")).isNull();
        assertThat(sent.header("Authorization")).isNull();
        assertThat(sent.header("anthropic-version")).isEqualTo("2023-06-01");
    }

    @Test
    void a_base_url_that_already_ends_in_v1_is_not_doubled() throws Exception {
        server.streamed("a", 5, 1).streamed("b", 5, 1);

        client(server.baseUrl() + "/v1", KEY, true, Duration.ofSeconds(30)).complete(REQUEST, recordDeltas);
        client(server.baseUrl() + "/v1/", KEY, true, Duration.ofSeconds(30)).complete(REQUEST, recordDeltas);

        assertThat(server.take().path()).isEqualTo("/v1/messages");
        assertThat(server.take().path()).isEqualTo("/v1/messages");
    }

    @Test
    void the_body_carries_max_tokens_the_system_blocks_with_a_breakpoint_the_split_user_text_and_no_penalties()
            throws Exception {
        server.streamed("Hi", 5, 1);
        String user = "stable layers|tick 9";
        LlmRequest request = new LlmRequest(List.of(Message.system("You are terse."),
                Message.user(user).withStablePrefix(user.indexOf('|') + 1)), 0.2, 64, 0.6, 0.3);

        client(true).complete(request, recordDeltas);

        JsonNode body = server.take().body();
        assertThat(body.path("model").asText()).isEqualTo(MODEL);
        assertThat(body.path("max_tokens").asInt()).isEqualTo(64);
        assertThat(body.path("temperature").asDouble()).isEqualTo(0.2);
        assertThat(body.path("stream").asBoolean()).isTrue();
        assertThat(body.path("system").get(0).path("text").asText()).isEqualTo("You are terse.");
        assertThat(body.path("system").get(0).path("cache_control").path("type").asText()).isEqualTo("ephemeral");
        JsonNode content = body.path("messages").get(0).path("content");
        assertThat(body.path("messages").get(0).path("role").asText()).isEqualTo("user");
        assertThat(content.get(0).path("text").asText()).isEqualTo("stable layers|");
        assertThat(content.get(0).path("cache_control").path("type").asText()).isEqualTo("ephemeral");
        assertThat(content.get(1).path("text").asText()).isEqualTo("tick 9");
        assertThat(content.get(1).has("cache_control")).isFalse();
        assertThat(body.has("presence_penalty")).isFalse();
        assertThat(body.has("frequency_penalty")).isFalse();
    }

    @Test
    void cached_prompt_tokens_count_in_the_prompt_and_are_recorded_as_cached() {
        server.events(messageStart(12, 300, 1800), textBlockStart(0), textDelta(0, "Hi"), blockStop(0),
                messageDelta("end_turn", 4), messageStop());

        Completion completion = client(true).complete(REQUEST, recordDeltas);

        assertThat(completion.usage()).isEqualTo(new Usage(12 + 300 + 1800, 4, false, 1800, 300));
        assertThat(completion.usage().budgetTokens()).as("read at a tenth, written at 1.25").isEqualTo(12 + 180 + 375 + 4);
    }

    @Test
    void a_message_delta_repeating_the_prompt_counts_updates_them() {
        server.events(messageStart(12, 0, 0), textBlockStart(0), textDelta(0, "Hi"), blockStop(0),
                event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
                        + "\"usage\":{\"input_tokens\":12,\"cache_creation_input_tokens\":0,"
                        + "\"cache_read_input_tokens\":2000,\"output_tokens\":30}}"), messageStop());

        assertThat(client(true).complete(REQUEST, recordDeltas).usage()).isEqualTo(new Usage(2012, 30, false, 2000));
    }

    @Test
    void pings_between_and_among_the_deltas_are_ignored() {
        server.events(ping(), messageStart(8), ping(), textBlockStart(0), ping(), textDelta(0, "A"), ping(), ping(),
                textDelta(0, "B"), blockStop(0), ping(), messageDelta("end_turn", 2), messageStop());

        assertThat(client(true).complete(REQUEST, recordDeltas).text()).isEqualTo("AB");
        assertThat(deltas).containsExactly("A", "B");
    }

    @Test
    void events_without_event_lines_are_read_by_the_type_inside_their_data() {
        String stream = FakeAnthropicServer.sampleStream("Hello there", 9, 3, "end_turn")
                .replaceAll("(?m)^event: .*\\n", "");

        server.events(stream);

        assertThat(client(true).complete(REQUEST, recordDeltas).text()).isEqualTo("Hello there");
    }

    @Test
    void thinking_blocks_stream_nothing_and_the_text_block_after_them_is_the_reply() {
        server.events(messageStart(8),
                event("content_block_start", "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":"
                        + "{\"type\":\"thinking\",\"thinking\":\"\"}}"),
                event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                        + "{\"type\":\"thinking_delta\",\"thinking\":\"Let me think.\"}}"),
                event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                        + "{\"type\":\"signature_delta\",\"signature\":\"EqQBCgIYAhIM\"}}"),
                blockStop(0), textBlockStart(1), textDelta(1, "Answer."), blockStop(1), messageDelta("end_turn", 20),
                messageStop());

        assertThat(client(true).complete(REQUEST, recordDeltas).text()).isEqualTo("Answer.");
        assertThat(deltas).containsExactly("Answer.");
    }

    @Test
    void stop_reasons_map_to_our_finish_reasons() {
        for (String reason : new String[] {"end_turn", "stop_sequence", "max_tokens", "refusal"}) {
            server.events(FakeAnthropicServer.sampleStream("x", 5, 1, reason));
        }
        AnthropicClient client = client(true);

        assertThat(client.complete(REQUEST, recordDeltas).finishReason()).isEqualTo("stop");
        assertThat(client.complete(REQUEST, recordDeltas).finishReason()).isEqualTo("stop");
        assertThat(client.complete(REQUEST, recordDeltas).finishReason()).isEqualTo("length");
        assertThat(client.complete(REQUEST, recordDeltas).finishReason()).isEqualTo("refusal");
    }

    @Test
    void a_stream_without_usage_gets_an_estimate_and_one_without_message_delta_estimates_only_the_reply() {
        server.events(textBlockStart(0), textDelta(0, "Hello there"), blockStop(0), messageStop());
        server.events(messageStart(40, 0, 100), textBlockStart(0), textDelta(0, "Hello there"), blockStop(0), messageStop());
        AnthropicClient client = client(true);

        Usage none = client.complete(REQUEST, recordDeltas).usage();
        Usage promptOnly = client.complete(REQUEST, recordDeltas).usage();

        assertThat(none).isEqualTo(new Usage(TokenEstimator.estimate(REQUEST.messages()),
                TokenEstimator.estimate("Hello there"), true));
        assertThat(promptOnly).isEqualTo(new Usage(140, TokenEstimator.estimate("Hello there"), true, 100));
    }

    // ---- where a stream ends -------------------------------------------------------------------

    @Test
    void a_stream_that_ends_without_message_stop_is_truncated_and_keeps_the_text_so_far() {
        server.events(messageStart(10), textBlockStart(0), textDelta(0, "Hel"), textDelta(0, "lo"), blockStop(0),
                messageDelta("end_turn", 2));

        LlmException e = failure(client(true));

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("truncated");
        assertThat(((RetryableLlmException) e).partialText()).isEqualTo("Hello");
        assertThat(e.getMessage()).isEqualTo("LLM endpoint " + server.baseUrl() + " closed the stream before the reply"
                + " was complete (no message_stop) after 5 characters: will retry");
        assertThat(deltas).containsExactly("Hel", "lo");
    }

    @Test
    void a_malformed_event_is_a_retryable_bad_response_with_the_text_so_far() {
        server.events(messageStart(10), textBlockStart(0), textDelta(0, "ok"), "event: content_block_delta\ndata: {oops\n\n",
                messageStop());

        LlmException e = failure(client(true));

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("bad_response");
        assertThat(((RetryableLlmException) e).partialText()).isEqualTo("ok");
        assertThat(e.getMessage()).contains(server.baseUrl()).doesNotContain("\n");
    }

    @Test
    void an_overloaded_error_mid_stream_is_retryable_and_keeps_the_text_so_far() {
        server.events(messageStart(10), textBlockStart(0), textDelta(0, "Hel"), textDelta(0, "lo"),
                FakeAnthropicServer.errorEvent("overloaded_error", "Overloaded"));

        LlmException e = failure(client(true));

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("stream_error");
        assertThat(((RetryableLlmException) e).partialText()).isEqualTo("Hello");
        assertThat(e.getMessage()).isEqualTo("LLM endpoint " + server.baseUrl()
                + " failed mid-reply: overloaded_error: Overloaded; will retry");
    }

    @Test
    void a_runaway_stream_is_cut_at_the_reply_cap_with_finish_reason_length_and_the_connection_closed()
            throws InterruptedException {
        CountDownLatch closed = new CountDownLatch(1);
        server.runaway(closed);

        Completion completion = client(true).complete(REQUEST, StreamListener.NONE);

        assertThat(completion.text()).hasSize(AnthropicClient.MAX_REPLY_CHARS);
        assertThat(completion.finishReason()).isEqualTo("length");
        assertThat(completion.interrupted()).isFalse();
        assertThat(completion.usage().estimated()).as("the server never counted the reply").isTrue();
        assertThat(closed.await(30, TimeUnit.SECONDS)).as("the client closed the connection").isTrue();
    }

    // ---- non-streaming -------------------------------------------------------------------------

    @Test
    void a_whole_message_is_read_with_its_text_blocks_joined_and_its_usage() throws Exception {
        server.json(200, "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"" + MODEL + "\","
                + "\"content\":[{\"type\":\"text\",\"text\":\"Hi! \"},{\"type\":\"text\",\"text\":\"I'm here.\"}],"
                + "\"stop_reason\":\"end_turn\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":20,"
                + "\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":1024,\"output_tokens\":6}}");

        Completion completion = client(false).complete(REQUEST, recordDeltas);

        assertThat(completion).isEqualTo(new Completion("Hi! I'm here.", new Usage(1044, 6, false, 1024), MODEL, "stop",
                false));
        assertThat(deltas).containsExactly("Hi! I'm here.");
        Received sent = server.take();
        assertThat(sent.body().has("stream")).isFalse();
        assertThat(sent.header("accept")).isEqualTo("application/json");
    }

    @Test
    void a_server_answering_a_stream_request_with_a_whole_message_is_read_as_one() {
        server.message("Plain hello", 9, 2);

        Completion completion = client(true).complete(REQUEST, recordDeltas);

        assertThat(completion.text()).isEqualTo("Plain hello");
        assertThat(completion.usage()).isEqualTo(new Usage(9, 2, false));
    }

    @Test
    void a_whole_reply_longer_than_the_reply_cap_is_cut_there_and_says_so() {
        server.message("y".repeat(AnthropicClient.MAX_REPLY_CHARS + 10), 10, 10);

        Completion completion = client(false).complete(REQUEST, recordDeltas);

        assertThat(completion.text()).hasSize(AnthropicClient.MAX_REPLY_CHARS);
        assertThat(completion.finishReason()).isEqualTo("length");
    }

    @Test
    void an_error_object_answering_with_200_is_the_servers_error() {
        server.json(200, FakeAnthropicServer.errorBody("overloaded_error", "Overloaded"));

        LlmException e = failure(client(false));

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.getMessage()).contains("overloaded_error");
    }

    @Test
    void a_login_page_answering_with_200_is_a_retryable_content_type_failure() {
        server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/html")
                .body("<html>Sign in</html>").build());

        LlmException e = failure(client(true));

        assertThat(e.kind()).isEqualTo("content_type");
        assertThat(e.getMessage()).contains(server.baseUrl(), "text/html", "llm.base_url");
    }

    // ---- cancel and deadline -------------------------------------------------------------------

    @Test
    void cancel_mid_stream_returns_the_text_so_far_marked_interrupted_with_the_prompt_count_kept() {
        server.stalled(messageStart(30, 0, 20) + textBlockStart(0) + textDelta(0, "Hel"));
        AnthropicClient client = client(true);
        CallCancel cancel = new CallCancel();

        Completion completion = client.complete(REQUEST, delta -> {
            deltas.add(delta);
            cancel.cancel();
        }, cancel);

        assertThat(completion.interrupted()).isTrue();
        assertThat(completion.text()).isEqualTo("Hel");
        assertThat(completion.usage()).isEqualTo(new Usage(50, TokenEstimator.estimate("Hel"), true, 20));
    }

    @Test
    void cancel_with_nothing_in_flight_is_harmless() {
        server.streamed("ok", 5, 1);
        AnthropicClient client = client(true);

        new CallCancel().cancel();   // another call's cancel, with nothing in flight
        Completion completion = client.complete(REQUEST, recordDeltas, new CallCancel());

        assertThat(completion.interrupted()).isFalse();
        assertThat(completion.text()).isEqualTo("ok");
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void pings_forever_hit_the_call_deadline_with_the_text_so_far() {
        server.pingsForever(messageStart(10) + textBlockStart(0) + textDelta(0, "Hel") + textDelta(0, "lo"));

        LlmException e = failure(client(server.baseUrl(), KEY, true, Duration.ofMillis(300)));

        assertThat(e.kind()).isEqualTo("deadline");
        assertThat(((RetryableLlmException) e).partialText()).isEqualTo("Hello");
        assertThat(e.getMessage()).isEqualTo("LLM endpoint " + server.baseUrl() + " did not finish its reply within 0.3 s"
                + " (llm.call_deadline_s): 5 characters arrived; will retry");
    }

    // ---- probe ---------------------------------------------------------------------------------

    @Test
    void probe_asks_for_the_model_with_the_same_headers_and_no_prompt() throws Exception {
        server.modelInfo();

        client(true).probe();

        Received sent = server.take();
        assertThat(sent.request().getMethod()).isEqualTo("GET");
        assertThat(sent.path()).isEqualTo("/v1/models/" + MODEL);
        assertThat(sent.header("x-api-key")).isEqualTo(KEY);
        assertThat(sent.header("anthropic-version")).isEqualTo("2023-06-01");
        assertThat(sent.header("Authorization")).isNull();
        assertThat(sent.body().isMissingNode()).isTrue();
    }

    @Test
    void probe_of_an_unknown_model_is_fatal_and_names_it() {
        server.error(404, "not_found_error", "model: " + MODEL);

        LlmException e = catchThrowableOfType(LlmException.class, () -> client(true).probe());

        assertThat(e.retryable()).isFalse();
        assertThat(e.kind()).isEqualTo("http_404");
        assertThat(e.getMessage()).contains(server.baseUrl(), "\"" + MODEL + "\"", "llm.model").doesNotContain(KEY);
    }

    @Test
    void probe_maps_other_failures_as_a_call_would() throws IOException {
        server.error(401, "authentication_error", "invalid x-api-key")
                .error(529, "overloaded_error", "Overloaded", "retry-after", "4");
        AnthropicClient client = client(true);

        LlmException rejected = catchThrowableOfType(LlmException.class, client::probe);
        LlmException busy = catchThrowableOfType(LlmException.class, client::probe);

        assertThat(rejected.authRejected()).isTrue();
        assertThat(busy).isInstanceOf(RetryableLlmException.class);
        assertThat(((RetryableLlmException) busy).retryAfter()).contains(Duration.ofSeconds(4));

        FakeAnthropicServer gone = new FakeAnthropicServer();
        String deadBase = gone.baseUrl();
        gone.close();
        LlmException refused = catchThrowableOfType(LlmException.class,
                () -> client(deadBase, KEY, true, Duration.ofSeconds(30)).probe());
        assertThat(refused.kind()).isEqualTo("connect");
    }

    @Test
    void a_probe_answered_by_a_login_page_does_not_count_as_an_answer() {
        server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/html").body("<html>Sign in</html>").build());

        LlmException e = catchThrowableOfType(LlmException.class, () -> client(true).probe());

        assertThat(e.kind()).isEqualTo("content_type");
    }

    // ---- misc ----------------------------------------------------------------------------------

    @Test
    void the_endpoint_is_the_base_without_credentials_and_the_default_base_is_anthropics() {
        AnthropicClient client = new AnthropicClient(new AnthropicSettings("https://user:pw@proxy.test/v1/", KEY, MODEL,
                true, Duration.ofSeconds(5), Duration.ofSeconds(30)));
        AnthropicClient plain = new AnthropicClient(new AnthropicSettings(null, KEY, MODEL, true, Duration.ofSeconds(5),
                Duration.ofSeconds(30)));

        assertThat(client.endpoint()).isEqualTo("https://proxy.test/v1");
        assertThat(client.model()).isEqualTo(MODEL);
        assertThat(plain.endpoint()).isEqualTo("https://api.anthropic.com");
    }

    @Test
    void the_http_client_is_made_at_the_first_call_and_only_once() {
        AtomicInteger made = new AtomicInteger();
        AnthropicSettings settings = new AnthropicSettings(server.baseUrl(), KEY, MODEL, false, Duration.ofSeconds(5),
                Duration.ofSeconds(30));
        AnthropicClient client = new AnthropicClient(settings, () -> {
            made.incrementAndGet();
            return AnthropicClient.httpClient(settings);
        }, CLOCK);
        assertThat(made).hasValue(0);

        server.message("one", 5, 1).modelInfo();
        client.complete(REQUEST, recordDeltas);
        client.probe();

        assertThat(made).hasValue(1);
    }

    @Test
    void a_bad_base_url_is_rejected_up_front() {
        assertThatThrownBy(() -> new AnthropicClient(new AnthropicSettings("api.anthropic.com", KEY, MODEL, true,
                Duration.ofSeconds(5), Duration.ofSeconds(30))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("llm.base_url");
    }
}
