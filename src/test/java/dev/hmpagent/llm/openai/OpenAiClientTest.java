package dev.hmpagent.llm.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.llm.CallCancel;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.wire.HttpCalls;
import dev.hmpagent.llm.wire.SseEventParser;
import dev.hmpagent.llm.FatalLlmException;
import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.Message;
import dev.hmpagent.llm.RetryableLlmException;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.llm.TokenEstimator;
import dev.hmpagent.llm.Usage;
import mockwebserver3.MockResponse;
import mockwebserver3.MockResponseBody;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okhttp3.OkHttpClient;
import okio.BufferedSink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OpenAiClientTest {
    private static final String KEY = "sk-secret-123";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final LlmRequest REQUEST = new LlmRequest(
            List.of(Message.system("You are terse."), Message.user("Say hello.")), 0.2, 64);
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2025-01-01T00:00:00Z"), ZoneOffset.UTC);

    private final MockWebServer server = new MockWebServer();
    private final CountDownLatch releaseServer = new CountDownLatch(1);
    private final List<String> deltas = new CopyOnWriteArrayList<>();
    private final StreamListener recordDeltas = deltas::add;
    private String endpoint;

    @BeforeEach
    void start() throws IOException {
        server.start();
        endpoint = server.url("/v1").toString();
    }

    @AfterEach
    void stop() {
        releaseServer.countDown();
        server.close();
    }

    // ---- helpers -------------------------------------------------------------------------------

    private OpenAiClient client(boolean stream, String key) {
        return client(stream, key, endpoint + "/", OpenAiClient.httpClient(settings(endpoint, key, stream)));
    }

    private static OpenAiClient client(boolean stream, String key, String baseUrl, OkHttpClient http) {
        return new OpenAiClient(settings(baseUrl, key, stream), HttpCalls.constant(http), CLOCK);
    }

    private OpenAiClient client(boolean stream, Duration callDeadline) {
        OpenAiSettings settings = new OpenAiSettings(endpoint, KEY, "llama3", stream, Duration.ofSeconds(5),
                Duration.ofSeconds(30), callDeadline);
        return new OpenAiClient(settings, HttpCalls.constant(OpenAiClient.httpClient(settings)), CLOCK);
    }

    private static OpenAiSettings settings(String baseUrl, String key, boolean stream) {
        return new OpenAiSettings(baseUrl, key, "llama3", stream, Duration.ofSeconds(5), Duration.ofSeconds(30));
    }

    private static String chunk(String content) {
        return "data: {\"model\":\"llama3:8b\",\"choices\":[{\"index\":0,\"delta\":{\"content\":"
                + quote(content) + "},\"finish_reason\":null}]}\n\n";
    }

    private static String finalChunk() {
        return "data: {\"model\":\"llama3:8b\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n";
    }

    private static String usageChunk(int prompt, int completion) {
        return "data: {\"model\":\"llama3:8b\",\"choices\":[],\"usage\":{\"prompt_tokens\":" + prompt
                + ",\"completion_tokens\":" + completion + "}}\n\n";
    }

    private static String done() {
        return "data: [DONE]\n\n";
    }

    private static String jsonReply(String content, String usage) {
        return "{\"id\":\"c1\",\"model\":\"llama3:8b\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                + "\"content\":" + quote(content) + "},\"finish_reason\":\"stop\"}]" + (usage == null ? "" : ",\"usage\":" + usage) + "}";
    }

    private static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static MockResponse sse(String body) {
        return new MockResponse.Builder().setHeader("Content-Type", "text/event-stream").body(body).build();
    }

    private static MockResponse typed(String contentType, String body) {
        return new MockResponse.Builder().setHeader("Content-Type", contentType).body(body).build();
    }

    private static MockResponse untyped(String body) {
        return new MockResponse.Builder().removeHeader("Content-Type").body(body).build();
    }

    private static MockResponse json(int code, String body) {
        return new MockResponse.Builder().code(code).setHeader("Content-Type", "application/json").body(body).build();
    }

    private static JsonNode body(RecordedRequest request) throws IOException {
        return JSON.readTree(request.getBody().utf8());
    }

    private LlmException failure(OpenAiClient client) {
        return catchThrowableOfType(LlmException.class, () -> client.complete(REQUEST, recordDeltas));
    }

    // ---- streaming -----------------------------------------------------------------------------

    @Test
    void streaming_reply_is_concatenated_and_usage_recorded() throws Exception {
        server.enqueue(sse(chunk("Hel") + chunk("lo") + chunk("") + chunk("!") + finalChunk() + usageChunk(21, 3) + done()));

        Completion completion = client(true, KEY).complete(REQUEST, recordDeltas);

        assertThat(completion.text()).isEqualTo("Hello!");
        assertThat(deltas).containsExactly("Hel", "lo", "!");
        assertThat(completion.usage()).isEqualTo(new Usage(21, 3, false));
        assertThat(completion.model()).isEqualTo("llama3:8b");
        assertThat(completion.finishReason()).isEqualTo("stop");
        assertThat(completion.interrupted()).isFalse();

        RecordedRequest request = server.takeRequest();
        assertThat(request.getMethod()).isEqualTo("POST");
        assertThat(request.getUrl().encodedPath()).isEqualTo("/v1/chat/completions");
        assertThat(request.getHeaders().get("Authorization")).isEqualTo("Bearer " + KEY);
        JsonNode sent = body(request);
        assertThat(sent.path("model").asText()).isEqualTo("llama3");
        assertThat(sent.path("stream").asBoolean()).isTrue();
        assertThat(sent.path("stream_options").path("include_usage").asBoolean()).isTrue();
        assertThat(sent.path("temperature").asDouble()).isEqualTo(0.2);
        assertThat(sent.path("max_tokens").asInt()).isEqualTo(64);
        assertThat(sent.path("messages")).hasSize(2);
        assertThat(sent.path("messages").get(0).path("role").asText()).isEqualTo("system");
        assertThat(sent.path("messages").get(0).path("content").asText()).isEqualTo("You are terse.");
        assertThat(sent.path("messages").get(1).path("role").asText()).isEqualTo("user");
        assertThat(sent.path("messages").get(1).path("content").asText()).isEqualTo("Say hello.");
        assertThat(sent.has("presence_penalty")).as("a penalty of 0 is not sent").isFalse();
        assertThat(sent.has("frequency_penalty")).isFalse();
    }

    @Test
    void penalties_other_than_zero_are_sent() throws Exception {
        server.enqueue(sse(chunk("Hi") + finalChunk() + done()));

        client(true, KEY).complete(new LlmRequest(REQUEST.messages(), 0.9, 64, 0.4, 0.2), d -> { });

        JsonNode sent = body(server.takeRequest());
        assertThat(sent.path("presence_penalty").asDouble()).isEqualTo(0.4);
        assertThat(sent.path("frequency_penalty").asDouble()).isEqualTo(0.2);
        assertThat(sent.path("temperature").asDouble()).isEqualTo(0.9);
    }

    @Test
    void streaming_reply_without_usage_gets_estimated_non_zero_usage() throws Exception {
        server.enqueue(sse(chunk("Hello there") + finalChunk() + done()));

        Completion completion = client(true, "").complete(REQUEST, recordDeltas);

        assertThat(completion.text()).isEqualTo("Hello there");
        assertThat(completion.usage().estimated()).isTrue();
        assertThat(completion.usage().promptTokens()).isEqualTo(TokenEstimator.estimate(REQUEST.messages())).isPositive();
        assertThat(completion.usage().completionTokens()).isEqualTo(TokenEstimator.estimate("Hello there")).isPositive();
        assertThat(server.takeRequest().getHeaders().get("Authorization"))
                .as("no Authorization header without a key").isNull();
    }

    @Test
    void server_ignoring_stream_and_answering_json_is_read_as_a_whole_reply() throws Exception {
        server.enqueue(json(200, jsonReply("Plain hello", "{\"prompt_tokens\":9,\"completion_tokens\":2}")));

        Completion completion = client(true, KEY).complete(REQUEST, recordDeltas);

        assertThat(completion.text()).isEqualTo("Plain hello");
        assertThat(completion.usage()).isEqualTo(new Usage(9, 2, false));
        assertThat(deltas).containsExactly("Plain hello");
        assertThat(body(server.takeRequest()).path("stream").asBoolean()).isTrue();
    }

    @Test
    void http_400_on_a_stream_is_retried_once_without_streaming_and_streaming_stays_off() throws Exception {
        server.enqueue(json(400, "{\"error\":{\"message\":\"unknown field stream_options\"}}"));
        server.enqueue(json(200, jsonReply("Fallback hello", "{\"prompt_tokens\":9,\"completion_tokens\":2}")));
        server.enqueue(json(200, jsonReply("Second call", "{\"prompt_tokens\":9,\"completion_tokens\":2}")));
        OpenAiClient client = client(true, KEY);

        Completion first = client.complete(REQUEST, recordDeltas);
        Completion second = client.complete(REQUEST, recordDeltas);

        assertThat(first.text()).isEqualTo("Fallback hello");
        assertThat(second.text()).isEqualTo("Second call");
        assertThat(server.getRequestCount()).isEqualTo(3);
        JsonNode streamed = body(server.takeRequest());
        JsonNode retried = body(server.takeRequest());
        JsonNode later = body(server.takeRequest());
        assertThat(streamed.path("stream").asBoolean()).isTrue();
        assertThat(retried.path("stream").asBoolean()).isFalse();
        assertThat(retried.has("stream_options")).isFalse();
        assertThat(retried.path("messages")).isEqualTo(streamed.path("messages"));
        assertThat(later.path("stream").asBoolean()).isFalse();
    }

    @Test
    void http_400_that_persists_without_streaming_is_fatal_and_keeps_streaming_on() throws Exception {
        server.enqueue(json(400, "{\"error\":{\"message\":\"max_tokens too large\"}}"));
        server.enqueue(json(400, "{\"error\":{\"message\":\"max_tokens too large\"}}"));
        OpenAiClient client = client(true, KEY);

        LlmException e = failure(client);

        assertThat(e).isInstanceOf(FatalLlmException.class);
        assertThat(e.kind()).isEqualTo("http_400");
        assertThat(e.getMessage()).contains(endpoint, "max_tokens too large");
        assertThat(server.getRequestCount()).isEqualTo(2);
        assertThat(client.streaming()).isTrue();
    }

    // ---- non-streaming -------------------------------------------------------------------------

    @Test
    void non_streaming_reply_is_parsed_with_usage_finish_reason_and_model() throws Exception {
        server.enqueue(json(200, jsonReply("Hi!", "{\"prompt_tokens\":12,\"completion_tokens\":1,\"total_tokens\":13}")));

        Completion completion = client(false, KEY).complete(REQUEST, recordDeltas);

        assertThat(completion).isEqualTo(new Completion("Hi!", new Usage(12, 1, false), "llama3:8b", "stop", false));
        JsonNode sent = body(server.takeRequest());
        assertThat(sent.path("stream").asBoolean()).isFalse();
        assertThat(sent.has("stream_options")).isFalse();
    }

    @Test
    void cached_prompt_tokens_are_read_from_prompt_tokens_details_in_a_whole_reply() throws Exception {
        // the shape OpenAI documents: usage.prompt_tokens_details.cached_tokens, part of prompt_tokens
        server.enqueue(json(200, jsonReply("Hi!", "{\"prompt_tokens\":2006,\"completion_tokens\":300,"
                + "\"total_tokens\":2306,\"prompt_tokens_details\":{\"cached_tokens\":1920,\"audio_tokens\":0},"
                + "\"completion_tokens_details\":{\"reasoning_tokens\":0}}")));

        Completion completion = client(false, KEY).complete(REQUEST, recordDeltas);

        assertThat(completion.usage()).isEqualTo(new Usage(2006, 300, false, 1920));
    }

    @Test
    void cached_prompt_tokens_are_read_from_the_usage_chunk_of_a_stream() throws Exception {
        server.enqueue(sse(chunk("Hi") + finalChunk() + "data: {\"model\":\"llama3:8b\",\"choices\":[],\"usage\":"
                + "{\"prompt_tokens\":1200,\"completion_tokens\":2,\"prompt_tokens_details\":{\"cached_tokens\":1024}}}\n\n"
                + done()));

        Completion completion = client(true, KEY).complete(REQUEST, recordDeltas);

        assertThat(completion.usage()).isEqualTo(new Usage(1200, 2, false, 1024));
    }

    @Test
    void deepseek_cache_hit_tokens_count_as_cached_and_no_detail_means_none() throws Exception {
        server.enqueue(json(200, jsonReply("a", "{\"prompt_tokens\":100,\"completion_tokens\":1,"
                + "\"prompt_cache_hit_tokens\":64,\"prompt_cache_miss_tokens\":36}")));
        server.enqueue(json(200, jsonReply("b", "{\"prompt_tokens\":100,\"completion_tokens\":1}")));
        OpenAiClient client = client(false, KEY);

        assertThat(client.complete(REQUEST, recordDeltas).usage().cachedTokens()).isEqualTo(64);
        assertThat(client.complete(REQUEST, recordDeltas).usage().cachedTokens()).isZero();
    }

    @Test
    void a_json_body_beyond_the_cap_is_a_retryable_bad_response_and_is_not_read_whole() {
        String huge = "x".repeat((int) OpenAiClient.MAX_BODY_BYTES + 1_000);
        server.enqueue(json(200, jsonReply(huge, "{\"prompt_tokens\":1,\"completion_tokens\":1}")));

        assertThatThrownBy(() -> client(false, KEY).complete(REQUEST, recordDeltas))
                .isInstanceOfSatisfying(RetryableLlmException.class, e -> {
                    assertThat(e.kind()).isEqualTo("bad_response");
                    assertThat(e.getMessage()).contains("larger than 16 MB");
                });
    }

    @Test
    void a_whole_reply_longer_than_the_reply_cap_is_cut_there_and_says_so() {
        String longer = "y".repeat(OpenAiClient.MAX_REPLY_CHARS + 10);
        server.enqueue(json(200, jsonReply(longer, "{\"prompt_tokens\":1,\"completion_tokens\":1}")));

        Completion completion = client(false, KEY).complete(REQUEST, recordDeltas);

        assertThat(completion.text()).hasSize(OpenAiClient.MAX_REPLY_CHARS);
        assertThat(completion.finishReason()).isEqualTo("length");
    }

    @Test
    void non_streaming_reply_with_zero_usage_gets_estimated_usage() {
        server.enqueue(json(200, jsonReply("Hi there!", "{\"prompt_tokens\":0,\"completion_tokens\":0}")));

        Completion completion = client(false, KEY).complete(REQUEST, recordDeltas);

        assertThat(completion.usage().estimated()).isTrue();
        assertThat(completion.usage().promptTokens()).isPositive();
        assertThat(completion.usage().completionTokens()).isPositive();
    }

    @Test
    void malformed_json_reply_is_a_retryable_bad_response() {
        server.enqueue(json(200, "{\"choices\": [ oops"));

        LlmException e = failure(client(false, KEY));

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("bad_response");
        assertThat(e.getMessage()).contains(endpoint).doesNotContain("\n");
    }

    @Test
    void malformed_stream_chunk_is_a_retryable_bad_response() {
        server.enqueue(sse(chunk("ok") + "data: {not json\n\n" + done()));

        LlmException e = failure(client(true, KEY));

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("bad_response");
        assertThat(e.getMessage()).contains(endpoint).doesNotContain("\n");
        assertThat(((RetryableLlmException) e).partialText()).isEqualTo("ok");
    }

    // ---- where a stream ends ------------------------------------------------------------------

    @Test
    void stream_closed_without_finish_reason_or_done_is_truncated_and_keeps_the_text_so_far() {
        server.enqueue(sse(chunk("Hel") + chunk("lo")));

        LlmException e = failure(client(true, KEY));

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("truncated");
        assertThat(((RetryableLlmException) e).partialText()).isEqualTo("Hello");
        assertThat(e.getMessage()).contains(endpoint, "5 characters", "will retry").doesNotContain("\n");
        assertThat(deltas).containsExactly("Hel", "lo");
    }

    @Test
    void empty_event_stream_is_truncated_with_no_text() {
        server.enqueue(sse(": nothing to see\n\n"));

        LlmException e = failure(client(true, KEY));

        assertThat(e.kind()).isEqualTo("truncated");
        assertThat(((RetryableLlmException) e).partialText()).isEmpty();
    }

    @Test
    void stream_with_a_finish_reason_but_no_done_is_complete() {
        server.enqueue(sse(chunk("Hel") + chunk("lo") + finalChunk()));

        Completion completion = client(true, KEY).complete(REQUEST, recordDeltas);

        assertThat(completion.text()).isEqualTo("Hello");
        assertThat(completion.finishReason()).isEqualTo("stop");
        assertThat(completion.interrupted()).isFalse();
    }

    @Test
    void stream_with_done_but_no_finish_reason_is_complete() {
        server.enqueue(sse(chunk("Hel") + chunk("lo") + done()));

        Completion completion = client(true, KEY).complete(REQUEST, recordDeltas);

        assertThat(completion.text()).isEqualTo("Hello");
        assertThat(completion.finishReason()).isEmpty();
        assertThat(completion.interrupted()).isFalse();
    }

    @Test
    void failures_before_any_text_carry_no_partial_text() {
        server.enqueue(new MockResponse.Builder().code(500).body("upstream exploded").build());

        RetryableLlmException e = (RetryableLlmException) failure(client(true, KEY));

        assertThat(e.partialText()).isEmpty();
    }

    @Test
    void an_event_stream_comment_of_2_mb_ends_the_reply_there_without_a_failure() {
        // issue 20 item 5: it was a retryable bad_response, retried as an outage although the server answered
        server.enqueue(sse(chunk("ok") + ": " + "x".repeat(2 * 1024 * 1024) + "\n\n" + finalChunk() + done()));

        Completion c = client(true, KEY).complete(REQUEST, deltas::add);

        assertThat(c.text()).isEqualTo("ok");
        assertThat(c.finishReason()).isEqualTo(Completion.EVENT_CUT);
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void an_event_of_more_than_1_mb_keeps_the_text_that_fit_and_ends_the_reply_there() {
        String text = "z".repeat(1_500_000);
        server.enqueue(sse(chunk("ok ") + chunk(text) + finalChunk() + done()));

        Completion c = client(true, KEY).complete(REQUEST, deltas::add);

        assertThat(c.finishReason()).isEqualTo(Completion.EVENT_CUT);
        assertThat(c.text()).startsWith("ok zzz").matches("ok z+");
        assertThat(c.text().length()).isBetween(SseEventParser.MAX_BYTES - 200, SseEventParser.MAX_BYTES);
        assertThat(String.join("", deltas)).isEqualTo(c.text());
    }

    @Test
    void data_lines_adding_up_to_more_than_1_mb_keep_what_fit() {
        String big = "data: " + "y".repeat(600 * 1024) + "\n";
        server.enqueue(sse(chunk("ok") + big + big + "\n" + finalChunk() + done()));

        Completion c = client(true, KEY).complete(REQUEST, deltas::add);

        assertThat(c.text()).isEqualTo("ok");   // what fit of that event is not JSON: nothing of it is text
        assertThat(c.finishReason()).isEqualTo(Completion.EVENT_CUT);
    }

    // ---- what a 2xx body is --------------------------------------------------------------------

    @Test
    void html_page_answering_a_stream_is_a_retryable_content_type_failure() {
        server.enqueue(typed("text/html; charset=utf-8", "<!doctype html><html><title>Sign in</title></html>"));

        LlmException e = failure(client(true, KEY));

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("content_type");
        assertThat(e.getMessage()).isEqualTo("LLM endpoint " + endpoint + " answered HTTP 200 with text/html instead of"
                + " JSON or an event stream (a proxy or login page?): check llm.base_url");
        assertThat(deltas).isEmpty();
    }

    @Test
    void html_page_answering_a_plain_request_names_the_content_type() {
        server.enqueue(typed("text/html", "<html><body>Please log in</body></html>"));

        LlmException e = failure(client(false, KEY));

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("content_type");
        assertThat(e.getMessage()).contains(endpoint, "HTTP 200", "text/html", "llm.base_url").doesNotContain("\n");
    }

    @Test
    void event_stream_with_parameters_is_read_as_a_stream() {
        server.enqueue(typed("text/event-stream; charset=utf-8", chunk("Hi") + finalChunk() + done()));

        assertThat(client(true, KEY).complete(REQUEST, recordDeltas).text()).isEqualTo("Hi");
    }

    @Test
    void any_json_subtype_is_read_as_a_whole_reply() {
        server.enqueue(typed("application/vnd.example+json; charset=utf-8", jsonReply("Hi", null)));
        server.enqueue(typed("application/json;charset=UTF-8", jsonReply("Again", null)));
        OpenAiClient client = client(true, KEY);

        assertThat(client.complete(REQUEST, recordDeltas).text()).isEqualTo("Hi");
        assertThat(client.complete(REQUEST, recordDeltas).text()).isEqualTo("Again");
    }

    @Test
    void plain_text_that_starts_like_an_event_stream_is_read_as_one() {
        server.enqueue(typed("text/plain", "\r\n\n: hello\n\n" + chunk("Hel") + chunk("lo") + finalChunk() + done()));
        server.enqueue(typed("text/plain; charset=utf-8", "event: message\n" + chunk("Two") + finalChunk() + done()));
        OpenAiClient client = client(true, KEY);

        assertThat(client.complete(REQUEST, recordDeltas).text()).isEqualTo("Hello");
        assertThat(client.complete(REQUEST, recordDeltas).text()).isEqualTo("Two");
    }

    @Test
    void untyped_or_plain_text_json_is_read_as_a_whole_reply_even_when_a_stream_was_asked_for() {
        server.enqueue(untyped("  \n" + jsonReply("Untyped", null)));
        server.enqueue(typed("text/plain", jsonReply("Plain", null)));
        OpenAiClient client = client(true, KEY);

        assertThat(client.complete(REQUEST, recordDeltas).text()).isEqualTo("Untyped");
        assertThat(client.complete(REQUEST, recordDeltas).text()).isEqualTo("Plain");
    }

    @Test
    void untyped_event_stream_answering_a_plain_request_is_read_as_a_stream() {
        server.enqueue(untyped(chunk("Streamed anyway") + finalChunk() + done()));

        Completion completion = client(false, KEY).complete(REQUEST, recordDeltas);

        assertThat(completion.text()).isEqualTo("Streamed anyway");
        assertThat(deltas).containsExactly("Streamed anyway");
    }

    @Test
    void plain_text_or_untyped_body_that_is_neither_is_a_content_type_failure() {
        server.enqueue(typed("text/plain", "Please log in to continue"));
        server.enqueue(untyped("\n<html>login</html>"));
        server.enqueue(typed("text/plain", "dat"));
        OpenAiClient client = client(true, KEY);

        LlmException plain = failure(client);
        LlmException untyped = failure(client);
        LlmException cutShort = failure(client);

        assertThat(plain.kind()).isEqualTo("content_type");
        assertThat(plain.getMessage()).contains(endpoint, "text/plain", "llm.base_url");
        assertThat(untyped.kind()).isEqualTo("content_type");
        assertThat(untyped.getMessage()).contains(endpoint, "without a content type", "llm.base_url");
        assertThat(cutShort.kind()).isEqualTo("content_type");
        assertThat(deltas).isEmpty();
    }

    @Test
    void other_content_types_are_refused_even_when_the_body_looks_right() {
        server.enqueue(typed("application/octet-stream", chunk("Hi") + finalChunk() + done()));

        LlmException e = failure(client(true, KEY));

        assertThat(e.kind()).isEqualTo("content_type");
        assertThat(e.getMessage()).contains("application/octet-stream");
    }

    // ---- HTTP errors ---------------------------------------------------------------------------

    @Test
    void http_401_is_fatal_names_the_endpoint_and_never_leaks_the_key() {
        server.enqueue(json(401, "{\"error\":{\"message\":\"Incorrect API key provided: " + KEY + "\"}}"));

        LlmException e = failure(client(true, KEY));

        assertThat(e).isInstanceOf(FatalLlmException.class);
        assertThat(e.kind()).isEqualTo("http_401");
        assertThat(e.getMessage()).contains(endpoint, "API key", "llm.api_key", "OPENAI_API_KEY")
                .doesNotContain(KEY).doesNotContain("\n");
        assertThat(server.getRequestCount()).as("no fallback retry for 401").isEqualTo(1);
    }

    @Test
    void http_401_and_403_are_classified_as_rejected_credentials() {
        server.enqueue(json(401, "{\"error\":{\"message\":\"Incorrect API key provided: " + KEY + "\"}}"));
        server.enqueue(new MockResponse.Builder().code(403).setHeader("Content-Type", "text/html")
                .body("<html>Forbidden for " + KEY + "</html>").build());
        OpenAiClient client = client(false, KEY);

        LlmException unauthorized = failure(client);
        LlmException forbidden = failure(client);

        assertThat(unauthorized.authRejected()).isTrue();
        assertThat(forbidden).isInstanceOf(FatalLlmException.class);
        assertThat(forbidden.kind()).isEqualTo("http_403");
        assertThat(forbidden.authRejected()).isTrue();
        assertThat(forbidden.getMessage()).contains(endpoint, "llm.api_key", "OPENAI_API_KEY").doesNotContain(KEY);
    }

    @Test
    void http_404_is_fatal_and_points_at_model_and_base_url() {
        server.enqueue(json(404, "{\"error\":{\"message\":\"model \\\"llama3\\\" not found, try pulling it first\"}}"));

        LlmException e = failure(client(false, KEY));

        assertThat(e).isInstanceOf(FatalLlmException.class);
        assertThat(e.kind()).isEqualTo("http_404");
        assertThat(e.getMessage()).contains(endpoint, "llm.model", "ollama pull llama3", "llm.base_url", "/v1")
                .doesNotContain(KEY);
    }

    @Test
    void other_4xx_is_fatal_with_a_short_single_line_excerpt_of_the_server_message() {
        server.enqueue(json(422, "{\"error\":{\"message\":\"bad\\nthing " + "x".repeat(400) + "\"}}"));

        LlmException e = failure(client(false, KEY));

        assertThat(e).isInstanceOf(FatalLlmException.class);
        assertThat(e.kind()).isEqualTo("http_422");
        assertThat(e.getMessage()).contains(endpoint, "bad thing").doesNotContain("\n")
                .doesNotContain("x".repeat(201)).doesNotContain(KEY);
    }

    @Test
    void http_500_is_retryable() {
        server.enqueue(new MockResponse.Builder().code(500).body("upstream exploded").build());

        LlmException e = failure(client(true, KEY));

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("http_500");
        assertThat(e.getMessage()).contains(endpoint, "upstream exploded").doesNotContain(KEY);
        assertThat(((RetryableLlmException) e).retryAfter()).isEmpty();
    }

    @Test
    void http_429_honours_retry_after_seconds() {
        server.enqueue(new MockResponse.Builder().code(429).setHeader("Retry-After", "7")
                .body("{\"error\":{\"message\":\"slow down\"}}").build());

        LlmException e = failure(client(true, KEY));

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("http_429");
        assertThat(((RetryableLlmException) e).retryAfter()).contains(Duration.ofSeconds(7));
        assertThat(e.getMessage()).contains(endpoint, "slow down").doesNotContain(KEY);
    }

    @Test
    void retry_after_as_http_date_is_relative_to_the_clock() {
        server.enqueue(new MockResponse.Builder().code(503)
                .setHeader("Retry-After", "Wed, 01 Jan 2025 00:01:30 GMT").build());

        LlmException e = failure(client(false, KEY));

        assertThat(e.kind()).isEqualTo("http_503");
        assertThat(((RetryableLlmException) e).retryAfter()).contains(Duration.ofSeconds(90));
    }

    // ---- transport failures --------------------------------------------------------------------

    @Test
    void nothing_listening_is_a_retryable_connect_failure_with_advice() throws IOException {
        MockWebServer gone = new MockWebServer();
        gone.start();
        String deadBase = gone.url("/v1").toString();
        gone.close();
        OpenAiClient client = client(true, KEY, deadBase, OpenAiClient.httpClient(settings(deadBase, KEY, true)));

        LlmException e = failure(client);

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("connect");
        assertThat(e.getMessage()).isEqualTo("LLM endpoint " + deadBase + " is not reachable (connection refused): "
                + "start the server (e.g. \"ollama serve\") or set llm.base_url");
    }

    @Test
    void unknown_host_is_a_retryable_dns_failure_naming_the_host() {
        String base = "http://no-such-host.invalid/v1";
        OpenAiClient client = client(true, KEY, base, OpenAiClient.httpClient(settings(base, KEY, true)));

        LlmException e = failure(client);

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("dns");
        assertThat(e.getMessage()).contains(base, "no-such-host.invalid", "llm.base_url").doesNotContain(KEY);
    }

    @Test
    void silent_server_is_a_retryable_timeout() {
        server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/event-stream")
                .body(blockingBody("")).build());
        OkHttpClient impatient = new OkHttpClient.Builder().readTimeout(Duration.ofMillis(200)).build();

        LlmException e = failure(client(true, KEY, endpoint, impatient));

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("timeout");
        assertThat(e.getMessage()).contains(endpoint, "llm.read_timeout_s");
    }

    // ---- call deadline -------------------------------------------------------------------------

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void keep_alive_comments_forever_hit_the_call_deadline_with_the_text_so_far() {
        server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/event-stream")
                .body(pingingBody(chunk("Hel") + chunk("lo"))).build());
        OpenAiClient client = client(true, Duration.ofMillis(400));

        long start = System.nanoTime();
        LlmException e = failure(client);
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("deadline");
        assertThat(((RetryableLlmException) e).partialText()).isEqualTo("Hello");
        assertThat(e.getMessage()).isEqualTo("LLM endpoint " + endpoint + " did not finish its reply within 0.4 s"
                + " (llm.call_deadline_s): 5 characters arrived; will retry");
        assertThat(deltas).containsExactly("Hel", "lo");
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(400));
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void a_trickling_plain_reply_hits_the_call_deadline() {
        server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/json")
                .body(tricklingBody(jsonReply("Slowly", null))).build());

        LlmException e = failure(client(false, Duration.ofMillis(300)));

        assertThat(e.kind()).isEqualTo("deadline");
        assertThat(((RetryableLlmException) e).partialText()).isEmpty();
        assertThat(e.getMessage()).contains(endpoint, "0.3 s", "llm.call_deadline_s");
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void the_call_deadline_covers_the_non_streaming_fallback() {
        server.enqueue(json(400, "{\"error\":{\"message\":\"stream not supported\"}}"));
        server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/json")
                .body(blockingBody("")).build());

        LlmException e = failure(client(true, Duration.ofMillis(400)));

        assertThat(e.kind()).isEqualTo("deadline");
        assertThat(server.getRequestCount()).isEqualTo(2);
    }

    @Test
    void replies_well_within_the_call_deadline_are_unaffected() {
        server.enqueue(sse(chunk("Hel") + chunk("lo") + finalChunk() + done()));
        server.enqueue(sse(chunk("Again") + finalChunk() + done()));
        OpenAiClient client = client(true, Duration.ofMillis(400));

        assertThat(client.complete(REQUEST, recordDeltas).text()).isEqualTo("Hello");
        assertThat(client.complete(REQUEST, recordDeltas).text()).isEqualTo("Again");
    }

    @Test
    void an_absurdly_long_call_deadline_means_no_practical_deadline() {
        server.enqueue(sse(chunk("Hi") + finalChunk() + done()));

        assertThat(client(true, Duration.ofDays(1_000_000)).complete(REQUEST, recordDeltas).text()).isEqualTo("Hi");
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void cancel_before_the_call_deadline_is_still_an_interrupted_reply() throws Exception {
        server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/event-stream")
                .body(pingingBody(chunk("Hel"))).build());
        OpenAiClient client = client(true, Duration.ofSeconds(5));
        CallCancel cancel = new CallCancel();

        Completion completion = client.complete(REQUEST, delta -> {
            deltas.add(delta);
            cancel.cancel();
        }, cancel);

        assertThat(completion.interrupted()).isTrue();
        assertThat(completion.text()).isEqualTo("Hel");
    }

    // ---- cancel --------------------------------------------------------------------------------

    @Test
    void cancel_mid_stream_returns_the_text_so_far_marked_interrupted() throws Exception {
        server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/event-stream")
                .body(blockingBody(chunk("Hel"))).build());
        OpenAiClient client = client(true, KEY);
        CallCancel cancel = new CallCancel();
        CountDownLatch firstDelta = new CountDownLatch(1);
        Thread canceller = new Thread(() -> {
            try {
                firstDelta.await();
                cancel.cancel();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "canceller");
        canceller.start();

        Completion completion = client.complete(REQUEST, delta -> {
            deltas.add(delta);
            firstDelta.countDown();
        }, cancel);
        canceller.join();

        assertThat(completion.interrupted()).isTrue();
        assertThat(completion.text()).isEqualTo("Hel");
        assertThat(deltas).containsExactly("Hel");
        assertThat(completion.usage().estimated()).isTrue();
        assertThat(completion.usage().promptTokens()).isPositive();
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void cancel_before_anything_arrived_counts_the_prompt_and_nothing_out() throws Exception {
        server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/event-stream")
                .body(blockingBody("")).build());
        OpenAiClient client = client(true, KEY);
        CallCancel cancel = new CallCancel();
        Thread canceller = new Thread(() -> {
            try {
                server.takeRequest();   // the request is out, no token has come back
                cancel.cancel();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "canceller");
        canceller.start();

        Completion completion = client.complete(REQUEST, deltas::add, cancel);
        canceller.join();

        assertThat(completion.interrupted()).isTrue();
        assertThat(completion.text()).isEmpty();
        assertThat(completion.usage().promptTokens()).isPositive();
        assertThat(completion.usage().completionTokens()).as("nothing arrived: not \"1 out\"").isZero();
    }

    @Test
    void cancel_with_nothing_in_flight_is_harmless() {
        server.enqueue(sse(chunk("ok") + done()));
        OpenAiClient client = client(true, KEY);

        new CallCancel().cancel();   // another call's cancel, with nothing in flight
        Completion completion = client.complete(REQUEST, recordDeltas, new CallCancel());

        assertThat(completion.interrupted()).isFalse();
        assertThat(completion.text()).isEqualTo("ok");
    }

    // ---- misc ----------------------------------------------------------------------------------

    @Test
    void endpoint_is_the_base_url_without_trailing_slash_or_credentials() {
        OpenAiClient client = new OpenAiClient(settings("http://user:pw@example.test:8080/v1/", KEY, true));

        assertThat(client.endpoint()).isEqualTo("http://example.test:8080/v1");
        assertThat(client.model()).isEqualTo("llama3");
        assertThat(settings(endpoint, KEY, true).toString()).doesNotContain(KEY);
    }

    @Test
    void the_http_client_is_made_at_the_first_call_and_only_once() {
        java.util.concurrent.atomic.AtomicInteger made = new java.util.concurrent.atomic.AtomicInteger();
        OpenAiSettings settings = settings(endpoint, KEY, false);
        OpenAiClient client = new OpenAiClient(settings, () -> {
            made.incrementAndGet();
            return OpenAiClient.httpClient(settings);
        }, CLOCK);
        assertThat(client.endpoint()).isEqualTo(endpoint);
        assertThat(made).hasValue(0);   // a start that never thinks never sets up TLS

        server.enqueue(json(200, jsonReply("one", null)));
        server.enqueue(json(200, jsonReply("two", null)));
        assertThat(client.complete(REQUEST, recordDeltas).text()).isEqualTo("one");
        assertThat(client.complete(REQUEST, recordDeltas).text()).isEqualTo("two");

        assertThat(made).hasValue(1);
    }

    @Test
    void a_bad_base_url_is_rejected_up_front() {
        assertThatThrownBy(() -> new OpenAiClient(settings("localhost:11434", KEY, true)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("llm.base_url");
    }

    /** A body that sends {@code first}, then an SSE keep-alive comment every 50 ms until the test ends. */
    private MockResponseBody pingingBody(String first) {
        return new MockResponseBody() {
            @Override
            public long getContentLength() { return -1; }

            @Override
            public void writeTo(BufferedSink sink) throws IOException {
                sink.writeUtf8(first);
                sink.flush();
                try {
                    while (!releaseServer.await(50, TimeUnit.MILLISECONDS)) {
                        sink.writeUtf8(": ping\n\n");
                        sink.flush();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }

    /** A body that sends {@code text} one character every 50 ms, stopping early when the test ends. */
    private MockResponseBody tricklingBody(String text) {
        return new MockResponseBody() {
            @Override
            public long getContentLength() { return -1; }

            @Override
            public void writeTo(BufferedSink sink) throws IOException {
                try {
                    for (int i = 0; i < text.length() && !releaseServer.await(50, TimeUnit.MILLISECONDS); i++) {
                        sink.writeUtf8(text.substring(i, i + 1));
                        sink.flush();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }

    /** A body that sends {@code first}, then holds the connection open until the test ends. */
    private MockResponseBody blockingBody(String first) {
        return new MockResponseBody() {
            @Override
            public long getContentLength() { return -1; }

            @Override
            public void writeTo(BufferedSink sink) throws IOException {
                sink.writeUtf8(first);
                sink.flush();
                try {
                    releaseServer.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }
}
