package dev.hmpagent.llm.ollama;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hmpagent.llm.CallCancel;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.wire.HttpCalls;
import dev.hmpagent.llm.FatalLlmException;
import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.Message;
import dev.hmpagent.llm.RetryableLlmException;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.llm.TokenEstimator;
import dev.hmpagent.llm.Usage;
import dev.hmpagent.testing.FakeOllamaServer;
import dev.hmpagent.testing.FakeOllamaServer.Received;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.hmpagent.testing.FakeOllamaServer.chunk;
import static dev.hmpagent.testing.FakeOllamaServer.done;
import static dev.hmpagent.testing.FakeOllamaServer.doneCached;
import static dev.hmpagent.testing.FakeOllamaServer.errorLine;
import static dev.hmpagent.testing.FakeOllamaServer.thinking;
import static dev.hmpagent.testing.FakeOllamaServer.whole;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The adapter against a fake Ollama on a real socket: what it sends, what it makes of each reply and failure. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OllamaClientTest {
    private static final String KEY = "ollama-secret-123";
    private static final String MODEL = FakeOllamaServer.MODEL;
    private static final LlmRequest REQUEST = new LlmRequest(
            List.of(Message.system("You are terse."), Message.user("why is the sky blue?")), 0.2, 64);
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2025-01-01T00:00:00Z"), ZoneOffset.UTC);

    private FakeOllamaServer server;
    private String endpoint;
    private final List<String> deltas = new CopyOnWriteArrayList<>();
    private final StreamListener recordDeltas = deltas::add;

    @BeforeEach
    void start() throws IOException {
        server = new FakeOllamaServer();
        endpoint = server.baseUrl();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    // ---- helpers -------------------------------------------------------------------------------

    private static OllamaSettings settings(String baseUrl, boolean stream, Map<String, Object> options,
                                           String keepAlive, String key, Duration callDeadline) {
        return new OllamaSettings(baseUrl, MODEL, stream, Duration.ofSeconds(5), Duration.ofSeconds(30), callDeadline,
                options, keepAlive, key);
    }

    private OllamaClient client(boolean stream) {
        return client(settings(endpoint, stream, Map.of(), "", "", Duration.ofSeconds(30)));
    }

    private OllamaClient keyed(boolean stream) {
        return client(settings(endpoint, stream, Map.of(), "", KEY, Duration.ofSeconds(30)));
    }

    private static OllamaClient client(OllamaSettings settings) {
        return new OllamaClient(settings, HttpCalls.constant(OllamaClient.httpClient(settings)), CLOCK);
    }

    private LlmException failure(OllamaClient client) {
        return catchThrowableOfType(LlmException.class, () -> client.complete(REQUEST, recordDeltas));
    }

    private static int promptEstimate() {
        return TokenEstimator.estimate(REQUEST.messages());
    }

    // ---- streaming -----------------------------------------------------------------------------

    @Test
    void a_stream_is_concatenated_and_the_final_object_gives_usage_model_and_finish() throws Exception {
        server.stream(chunk("The"), chunk(" sky"), chunk(""), chunk(" scatters."), done("stop", 26, 4));

        Completion completion = client(true).complete(REQUEST, recordDeltas);

        assertThat(completion).isEqualTo(new Completion("The sky scatters.", new Usage(26, 4, false), MODEL, "stop",
                false));
        assertThat(deltas).containsExactly("The", " sky", " scatters.");
        Received request = server.take();
        assertThat(request.request().getMethod()).isEqualTo("POST");
        assertThat(request.path()).isEqualTo("/api/chat");
        assertThat(request.header("Authorization")).as("no key, no Authorization").isNull();
        assertThat(request.header("Content-Type")).startsWith("application/json");
        JsonNode sent = request.body();
        assertThat(sent.path("model").asText()).isEqualTo(MODEL);
        assertThat(sent.path("stream").asBoolean()).isTrue();
        assertThat(sent.path("messages")).hasSize(2);
        assertThat(sent.path("messages").get(0).path("role").asText()).isEqualTo("system");
        assertThat(sent.path("messages").get(0).path("content").asText()).isEqualTo("You are terse.");
        assertThat(sent.path("messages").get(1).path("role").asText()).isEqualTo("user");
        assertThat(sent.path("messages").get(1).path("content").asText()).isEqualTo("why is the sky blue?");
        assertThat(request.options().path("temperature").asDouble()).isEqualTo(0.2);
        assertThat(request.options().path("num_predict").asInt()).isEqualTo(64);
        assertThat(request.options().has("presence_penalty")).as("a penalty of 0 is not sent").isFalse();
        assertThat(request.options().has("frequency_penalty")).isFalse();
        assertThat(sent.has("keep_alive")).as("no keep_alive configured, none sent").isFalse();
        assertThat(sent.has("max_tokens")).as("no OpenAI names on the native API").isFalse();
    }

    @Test
    void text_on_the_final_object_is_part_of_the_reply() {
        // docs/api/streaming.mdx: the last piece may come on the "done": true line itself
        server.stream(chunk("That"), chunk("'s"), "{\"model\":\"llama3.2\",\"created_at\":\"2025-10-26T17:15:24.166576Z\","
                + "\"message\":{\"role\":\"assistant\",\"content\":\"!\"},\"done\":true,\"done_reason\":\"stop\"}\n");

        Completion completion = client(true).complete(REQUEST, recordDeltas);

        assertThat(completion.text()).isEqualTo("That's!");
        assertThat(deltas).containsExactly("That", "'s", "!");
        assertThat(completion.usage().estimated()).as("no counts on that line").isTrue();
    }

    @Test
    void thinking_lines_and_blank_lines_are_skipped() {
        server.stream(thinking("The user asks about the sky."), "\n", "\r\n", chunk("Rayleigh"), "  \n",
                chunk(" scattering."), done("stop", 30, 3));

        Completion completion = client(true).complete(REQUEST, recordDeltas);

        assertThat(completion.text()).isEqualTo("Rayleigh scattering.");
        assertThat(deltas).containsExactly("Rayleigh", " scattering.");
    }

    @Test
    void reading_stops_at_done_even_if_the_connection_stays_open() {
        server.stalled(chunk("Hi") + done("stop", 26, 1));

        assertThat(client(true).complete(REQUEST, recordDeltas).text()).isEqualTo("Hi");
    }

    @Test
    void done_reason_length_is_finish_length_and_other_reasons_pass_as_given() {
        server.stream(chunk("cut"), done("length", 26, 64));
        server.stream(chunk("odd"), done("unload", 26, 1));
        OllamaClient client = client(true);

        assertThat(client.complete(REQUEST, recordDeltas).finishReason()).isEqualTo("length");
        assertThat(client.complete(REQUEST, recordDeltas).finishReason()).isEqualTo("unload");
    }

    // ---- the request -------------------------------------------------------------------------

    @Test
    void with_no_num_ctx_in_the_options_one_that_holds_the_prompt_is_sent_and_it_only_grows() throws Exception {
        server.streamed("ok", 26, 1).streamed("ok", 26, 1).streamed("ok", 26, 1);
        OllamaClient client = client(true);
        LlmRequest large = new LlmRequest(List.of(Message.user("word ".repeat(40_000))), 0.2, 64);   // ~50k tokens

        client.complete(REQUEST, recordDeltas);
        assertThat(client.notices()).as("the first size is not news").isEmpty();
        client.complete(large, recordDeltas);
        client.complete(REQUEST, recordDeltas);

        assertThat(server.take().options().path("num_ctx").asInt()).as("Ollama's default would be 2048 or 4096")
                .isEqualTo(8192);
        assertThat(server.take().options().path("num_ctx").asInt()).as("50k tokens and a quarter more, by 8192s")
                .isEqualTo(65_536);
        assertThat(server.take().options().path("num_ctx").asInt()).as("never shrinks: each size reloads the model")
                .isEqualTo(65_536);
        assertThat(client.notices()).singleElement().asString().contains("grows from 8192 to 65536 tokens")
                .contains("llm.options num_ctx");
        assertThat(client.notices()).as("said once").isEmpty();

        server.streamed("ok", 26, 1);
        client(true).complete(REQUEST, recordDeltas);
        assertThat(server.take().options().path("num_ctx").asInt())
                .as("another client of the model there (a delegated task) shares the size: no reload for it")
                .isEqualTo(65_536);
    }

    @Test
    void a_num_ctx_in_the_options_is_sent_as_it_is_and_a_prompt_too_large_for_it_is_said_once() throws Exception {
        server.streamed("ok", 26, 1).streamed("ok", 26, 1);
        OllamaClient client = client(settings(endpoint, true, Map.of("num_ctx", 4096), "", "", Duration.ofSeconds(30)));
        LlmRequest large = new LlmRequest(List.of(Message.user("word ".repeat(20_000))), 0.2, 64);   // ~25k tokens

        client.complete(large, recordDeltas);
        client.complete(large, recordDeltas);

        assertThat(server.take().options().path("num_ctx").asInt()).isEqualTo(4096);
        assertThat(server.take().options().path("num_ctx").asInt()).isEqualTo(4096);
        assertThat(client.notices()).singleElement().asString()
                .contains("do not fit llm.options num_ctx = 4096").contains("raise num_ctx");
        assertThat(client.notices()).isEmpty();

        server.streamed("ok", 26, 1);
        client(settings(endpoint, true, Map.of("num_ctx", "12000"), "", "", Duration.ofSeconds(30))).complete(REQUEST, recordDeltas);
        assertThat(server.take().options().path("num_ctx").asText()).as("whatever its type, the given one goes")
                .isEqualTo("12000");
    }

    @Test
    void settings_options_are_merged_and_the_requests_own_settings_win() throws Exception {
        Map<String, Object> options = new LinkedHashMap<>();
        options.put("num_ctx", 8192);
        options.put("top_k", 20);
        options.put("seed", 42);
        options.put("mirostat", 2);
        options.put("stop", List.of("<|eot_id|>", "user:"));
        options.put("temperature", 1.5);
        options.put("num_predict", 4096);
        options.put("presence_penalty", 0.3);
        options.put("frequency_penalty", 0.1);
        server.streamed("ok", 26, 1);

        client(settings(endpoint, true, options, "10m", "", Duration.ofSeconds(30)))
                .complete(new LlmRequest(REQUEST.messages(), 0.7, 256, 0, 0.6), recordDeltas);

        Received request = server.take();
        JsonNode sent = request.options();
        assertThat(sent.path("num_ctx").asInt()).isEqualTo(8192);
        assertThat(sent.path("top_k").asInt()).isEqualTo(20);
        assertThat(sent.path("seed").asInt()).isEqualTo(42);
        assertThat(sent.path("mirostat").asInt()).isEqualTo(2);
        assertThat(sent.path("stop").get(0).asText()).isEqualTo("<|eot_id|>");
        assertThat(sent.path("stop").get(1).asText()).isEqualTo("user:");
        assertThat(sent.path("temperature").asDouble()).as("the request's temperature wins").isEqualTo(0.7);
        assertThat(sent.path("num_predict").asInt()).as("the request's max tokens win").isEqualTo(256);
        assertThat(sent.path("presence_penalty").asDouble()).as("a request penalty of 0 leaves the setting")
                .isEqualTo(0.3);
        assertThat(sent.path("frequency_penalty").asDouble()).as("a request penalty wins").isEqualTo(0.6);
        assertThat(request.body().path("keep_alive").asText()).isEqualTo("10m");
    }

    @Test
    void keep_alive_in_whole_seconds_is_sent_as_a_number() throws Exception {
        server.streamed("ok", 26, 1);
        server.streamed("ok", 26, 1);

        client(settings(endpoint, true, Map.of(), "-1", "", Duration.ofSeconds(30))).complete(REQUEST, recordDeltas);
        client(settings(endpoint, true, Map.of(), "3600", "", Duration.ofSeconds(30))).complete(REQUEST, recordDeltas);

        JsonNode forever = server.take().body().path("keep_alive");
        JsonNode hour = server.take().body().path("keep_alive");
        assertThat(forever.isNumber()).isTrue();
        assertThat(forever.asInt()).isEqualTo(-1);
        assertThat(hour.isNumber()).isTrue();
        assertThat(hour.asInt()).isEqualTo(3600);
    }

    @Test
    void an_api_key_is_sent_as_a_bearer_token() throws Exception {
        server.streamed("ok", 26, 1);

        keyed(true).complete(REQUEST, recordDeltas);

        assertThat(server.take().header("Authorization")).isEqualTo("Bearer " + KEY);
    }

    @Test
    void a_base_url_ending_in_v1_or_api_asks_the_native_path_at_the_root() throws Exception {
        server.streamed("one", 26, 1);
        server.streamed("two", 26, 1);
        server.streamed("three", 26, 1);

        for (String base : List.of(endpoint + "/v1", endpoint + "/api/", endpoint + "//")) {
            client(settings(base, true, Map.of(), "", "", Duration.ofSeconds(30))).complete(REQUEST, recordDeltas);
            assertThat(server.take().path()).as(base).isEqualTo("/api/chat");
        }
    }

    // ---- non-streaming -------------------------------------------------------------------------

    @Test
    void a_whole_reply_is_parsed_and_delivered_once() throws Exception {
        server.json(200, whole("Hello! How are you today?", "stop", 26, 298));

        Completion completion = client(false).complete(REQUEST, recordDeltas);

        assertThat(completion).isEqualTo(new Completion("Hello! How are you today?", new Usage(26, 298, false), MODEL,
                "stop", false));
        assertThat(deltas).containsExactly("Hello! How are you today?");
        Received request = server.take();
        assertThat(request.body().path("stream").asBoolean()).isFalse();
        assertThat(request.header("Accept")).isEqualTo("application/json");
    }

    @Test
    void a_whole_reply_without_done_reason_has_an_empty_finish() {
        // docs/api.md's older samples: "done": true and counts, but no done_reason
        server.json(200, "{\"model\":\"llama3.2\",\"created_at\":\"2023-12-12T14:13:43.416799Z\",\"message\":{\"role\":"
                + "\"assistant\",\"content\":\"Hello!\"},\"done\":true,\"total_duration\":5191566416,\"load_duration\":"
                + "2154458,\"prompt_eval_count\":26,\"prompt_eval_duration\":383809000,\"eval_count\":298,"
                + "\"eval_duration\":4799921000}");

        Completion completion = client(false).complete(REQUEST, recordDeltas);

        assertThat(completion.finishReason()).isEmpty();
        assertThat(completion.usage()).isEqualTo(new Usage(26, 298, false));
    }

    @Test
    void a_stream_answering_a_plain_request_is_read_as_a_stream() {
        server.stream(chunk("Streamed"), chunk(" anyway"), done("stop", 26, 2));

        assertThat(client(false).complete(REQUEST, recordDeltas).text()).isEqualTo("Streamed anyway");
    }

    @Test
    void a_whole_object_answering_a_stream_request_is_one_line() {
        server.json(200, whole("Hi", "stop", 26, 1));

        assertThat(client(true).complete(REQUEST, recordDeltas).text()).isEqualTo("Hi");
    }

    @Test
    void an_untyped_or_plain_text_json_body_is_read() {
        server.enqueue(new MockResponse.Builder().removeHeader("Content-Type")
                .body("\n " + whole("Untyped", "stop", 26, 1)).build());
        server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/plain; charset=utf-8")
                .body(chunk("Plain") + done("stop", 26, 1)).build());
        OllamaClient client = client(false);

        assertThat(client.complete(REQUEST, recordDeltas).text()).isEqualTo("Untyped");
        assertThat(client(true).complete(REQUEST, recordDeltas).text()).isEqualTo("Plain");
    }

    // ---- usage ---------------------------------------------------------------------------------

    @Test
    void cached_prompt_tokens_come_from_prompt_eval_cached_count() {
        server.stream(chunk("Hi"), doneCached(1200, 1100, 2));

        assertThat(client(true).complete(REQUEST, recordDeltas).usage()).isEqualTo(new Usage(1200, 2, false, 1100));
    }

    @Test
    void an_old_server_leaving_out_prompt_eval_count_after_a_cache_hit_counts_the_estimate_as_cached() {
        server.stream(chunk("Hi"), FakeOllamaServer.doneWithoutPromptCount(2));

        Usage usage = client(true).complete(REQUEST, recordDeltas).usage();

        assertThat(usage).isEqualTo(new Usage(promptEstimate(), 2, true, promptEstimate()));
    }

    @Test
    void a_prompt_count_far_below_the_estimate_is_taken_for_the_uncached_remainder() {
        LlmRequest big = new LlmRequest(List.of(Message.system("x".repeat(4000)), Message.user("go")), 0.2, 64);
        int estimate = TokenEstimator.estimate(big.messages());
        server.stream(chunk("Hi"), done("stop", 12, 2));

        Usage usage = client(true).complete(big, recordDeltas).usage();

        assertThat(usage).isEqualTo(new Usage(estimate, 2, true, estimate - 12));
    }

    @Test
    void no_counts_at_all_are_an_estimate() {
        server.stream(chunk("Hello there"), "{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\",\"content\":\"\"},"
                + "\"done\":true,\"done_reason\":\"stop\"}\n");

        Usage usage = client(true).complete(REQUEST, recordDeltas).usage();

        assertThat(usage).isEqualTo(new Usage(promptEstimate(), TokenEstimator.estimate("Hello there"), true));
    }

    // ---- a stream that goes wrong --------------------------------------------------------------

    @Test
    void an_error_line_mid_stream_is_retryable_and_keeps_the_text_so_far() {
        // docs/api/errors.mdx: the status stays 200, the error comes as a line of its own
        server.stream(chunk(" Yes"), chunk("."), chunk("I"), errorLine("an error was encountered while running the model"));

        LlmException e = failure(client(true));

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("stream_error");
        assertThat(((RetryableLlmException) e).partialText()).isEqualTo(" Yes.I");
        assertThat(e.getMessage()).isEqualTo("LLM endpoint " + endpoint + " failed mid-reply: server reported an"
                + " error: an error was encountered while running the model");
    }

    @Test
    void a_stream_ending_before_done_is_truncated_and_keeps_the_text_so_far() {
        server.stream(chunk("Hel"), chunk("lo"));

        LlmException e = failure(client(true));

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("truncated");
        assertThat(((RetryableLlmException) e).partialText()).isEqualTo("Hello");
        assertThat(e.getMessage()).contains(endpoint, "5 characters", "will retry").doesNotContain("\n");
        assertThat(deltas).containsExactly("Hel", "lo");
    }

    @Test
    void an_empty_stream_is_truncated() {
        server.stream("");

        LlmException e = failure(client(true));

        assertThat(e.kind()).isEqualTo("truncated");
        assertThat(((RetryableLlmException) e).partialText()).isEmpty();
    }

    @Test
    void a_line_that_is_not_json_is_a_retryable_bad_response() {
        server.stream(chunk("ok"), "{not json\n", done("stop", 1, 1));

        LlmException e = failure(client(true));

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("bad_response");
        assertThat(((RetryableLlmException) e).partialText()).isEqualTo("ok");
    }

    @Test
    void a_line_of_2_mb_ends_the_reply_there_without_a_failure() {
        // issue 20 item 5: it was a retryable bad_response, retried as an outage although the server answered
        server.stream(chunk("ok"), "x".repeat(2 * 1024 * 1024) + "\n", done("stop", 1, 1));

        Completion c = client(true).complete(REQUEST, deltas::add);

        assertThat(c.text()).isEqualTo("ok");
        assertThat(c.finishReason()).isEqualTo(Completion.EVENT_CUT);
        assertThat(server.requestCount()).isEqualTo(1);
    }

    @Test
    void a_chunk_of_more_than_1_mb_keeps_the_text_that_fit_and_ends_the_reply_there() {
        server.stream(chunk("ok "), chunk("q".repeat(1_500_000)), done("stop", 1, 1));

        Completion c = client(true).complete(REQUEST, deltas::add);

        assertThat(c.finishReason()).isEqualTo(Completion.EVENT_CUT);
        assertThat(c.text()).startsWith("ok qqq").matches("ok q+");
        assertThat(c.text().length()).isBetween(1024 * 1024 - 200, 1024 * 1024);
        assertThat(String.join("", deltas)).isEqualTo(c.text());
    }

    @Test
    void a_runaway_stream_is_cut_at_the_reply_cap_and_not_read_further() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        server.runaway(64 * 1024, 200, closed);   // 12.5 Mi characters, never done

        Completion completion = client(true).complete(REQUEST, recordDeltas);

        assertThat(completion.text()).hasSize(OllamaClient.MAX_REPLY_CHARS);
        assertThat(completion.finishReason()).isEqualTo("length");
        assertThat(completion.interrupted()).isFalse();
        assertThat(String.join("", deltas)).hasSize(OllamaClient.MAX_REPLY_CHARS);
        assertThat(closed.await(10, TimeUnit.SECONDS)).as("the client hung up").isTrue();
    }

    @Test
    void a_whole_reply_longer_than_the_cap_is_cut_there() {
        server.json(200, whole("y".repeat(OllamaClient.MAX_REPLY_CHARS + 10), "stop", 1, 1));

        Completion completion = client(false).complete(REQUEST, recordDeltas);

        assertThat(completion.text()).hasSize(OllamaClient.MAX_REPLY_CHARS);
        assertThat(completion.finishReason()).isEqualTo("length");
    }

    @Test
    void a_whole_body_beyond_16_mb_is_a_bad_response() {
        server.json(200, whole("z".repeat((int) OllamaClient.MAX_BODY_BYTES + 1000), "stop", 1, 1));

        LlmException e = failure(client(false));

        assertThat(e.kind()).isEqualTo("bad_response");
        assertThat(e.getMessage()).contains("larger than 16 MB");
    }

    @Test
    void an_html_page_answering_200_is_a_content_type_failure() {
        server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/html; charset=utf-8")
                .body("<!doctype html><title>Sign in</title>").build());

        LlmException e = failure(client(true));

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("content_type");
        assertThat(e.getMessage()).isEqualTo("LLM endpoint " + endpoint + " answered HTTP 200 with text/html instead"
                + " of JSON (a proxy or login page?): check llm.base_url");
    }

    // ---- HTTP errors ---------------------------------------------------------------------------

    @Test
    void a_model_not_pulled_is_fatal_and_says_ollama_pull() {
        server.modelNotFound(MODEL);

        LlmException e = failure(keyed(true));

        assertThat(e).isInstanceOf(FatalLlmException.class);
        assertThat(e.kind()).isEqualTo("http_404");
        assertThat(e.getMessage()).isEqualTo("LLM endpoint " + endpoint + ": model \"llama3.2\" is not on this server"
                + " (HTTP 404: model 'llama3.2' not found): pull it with \"ollama pull llama3.2\" or set llm.model");
        assertThat(server.requestCount()).isEqualTo(1);
    }

    @Test
    void a_404_from_something_that_is_not_ollama_points_at_the_base_url() {
        server.enqueue(new MockResponse.Builder().code(404).setHeader("Content-Type", "text/plain")
                .body("404 page not found").build());

        LlmException e = failure(client(true));

        assertThat(e).isInstanceOf(FatalLlmException.class);
        assertThat(e.getMessage()).contains(endpoint, "has no /api/chat", "llm.base_url", "http://localhost:11434");
    }

    @Test
    void a_bad_request_is_fatal_with_the_servers_reason() {
        server.error(400, "invalid options: num_ctx");

        LlmException e = failure(client(true));

        assertThat(e).isInstanceOf(FatalLlmException.class);
        assertThat(e.kind()).isEqualTo("http_400");
        assertThat(e.getMessage()).contains(endpoint, "HTTP 400: invalid options: num_ctx", "llm.model");
    }

    @Test
    void a_refused_key_is_fatal_and_never_shown_even_when_the_server_echoes_it() {
        server.error(401, "unauthorized: key " + KEY);
        server.enqueue(new MockResponse.Builder().code(403).setHeader("Content-Type", "text/html")
                .body("<html>Forbidden for " + KEY + "</html>").build());
        OllamaClient client = keyed(true);

        LlmException unauthorized = failure(client);
        LlmException forbidden = failure(client);

        for (LlmException e : List.of(unauthorized, forbidden)) {
            assertThat(e).isInstanceOf(FatalLlmException.class);
            assertThat(e.authRejected()).isTrue();
            assertThat(e.getMessage()).contains(endpoint, "rejected the API key", "OLLAMA_API_KEY")
                    .doesNotContain(KEY).doesNotContain("\n");
        }
    }

    @Test
    void a_rate_limit_and_a_busy_server_are_retryable_after_the_servers_wait() {
        server.error(429, "too many requests", "Retry-After", "7");
        server.error(503, "server busy, please try again.  maximum pending requests exceeded",
                "Retry-After", "Wed, 01 Jan 2025 00:01:30 GMT");
        OllamaClient client = client(true);

        RetryableLlmException limited = (RetryableLlmException) failure(client);
        RetryableLlmException busy = (RetryableLlmException) failure(client);

        assertThat(limited.kind()).isEqualTo("http_429");
        assertThat(limited.retryAfter()).contains(Duration.ofSeconds(7));
        assertThat(limited.getMessage()).contains(endpoint, "rate limiting", "too many requests");
        assertThat(busy.kind()).isEqualTo("http_503");
        assertThat(busy.retryAfter()).contains(Duration.ofSeconds(90));
        assertThat(busy.getMessage()).contains(endpoint, "is busy", "maximum pending requests exceeded", "90s");
    }

    @Test
    void server_errors_are_retryable_without_partial_text() {
        server.error(500, "the model failed to generate a response");
        server.error(502, "cloud model unreachable");
        OllamaClient client = client(true);

        for (String kind : List.of("http_500", "http_502")) {
            LlmException e = failure(client);
            assertThat(e).isInstanceOf(RetryableLlmException.class);
            assertThat(e.kind()).isEqualTo(kind);
            assertThat(((RetryableLlmException) e).partialText()).isEmpty();
            assertThat(((RetryableLlmException) e).retryAfter()).isEmpty();
        }
    }

    // ---- transport failures --------------------------------------------------------------------

    @Test
    void nothing_listening_is_retryable_and_says_ollama_serve() throws IOException {
        MockWebServer gone = new MockWebServer();
        gone.start();
        String dead = gone.url("/").toString().replaceAll("/$", "");
        gone.close();

        LlmException e = failure(client(settings(dead, true, Map.of(), "", "", Duration.ofSeconds(30))));

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("connect");
        assertThat(e.getMessage()).isEqualTo("LLM endpoint " + dead + " is not reachable (connection refused): start"
                + " it with \"ollama serve\" or set OLLAMA_HOST / llm.base_url");
    }

    @Test
    void an_unknown_host_is_a_retryable_dns_failure() {
        LlmException e = failure(client(settings("http://no-such-host.invalid:11434", true, Map.of(), "", KEY,
                Duration.ofSeconds(30))));

        assertThat(e.kind()).isEqualTo("dns");
        assertThat(e.getMessage()).contains("http://no-such-host.invalid:11434", "no-such-host.invalid")
                .doesNotContain(KEY);
    }

    @Test
    void a_silent_server_is_a_retryable_timeout() {
        server.stalled("");
        OllamaSettings settings = settings(endpoint, true, Map.of(), "", "", Duration.ofSeconds(30));
        OkHttpClient impatient = new OkHttpClient.Builder().readTimeout(Duration.ofMillis(200)).build();

        LlmException e = failure(new OllamaClient(settings, HttpCalls.constant(impatient), CLOCK));

        assertThat(e.kind()).isEqualTo("timeout");
        assertThat(e.getMessage()).contains(endpoint, "llm.read_timeout_s");
    }

    // ---- deadline and cancel -------------------------------------------------------------------

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void a_stream_that_never_finishes_hits_the_call_deadline_with_the_text_so_far() {
        server.trickling(chunk("Hel") + chunk("lo"));

        LlmException e = failure(client(settings(endpoint, true, Map.of(), "", "", Duration.ofMillis(400))));

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("deadline");
        assertThat(((RetryableLlmException) e).partialText()).isEqualTo("Hello");
        assertThat(e.getMessage()).isEqualTo("LLM endpoint " + endpoint + " did not finish its reply within 0.4 s"
                + " (llm.call_deadline_s): 5 characters arrived; will retry");
    }

    @Test
    void cancel_mid_stream_from_another_thread_returns_the_text_so_far_marked_interrupted() throws Exception {
        server.stalled(chunk("Hel"));
        OllamaClient client = client(true);
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
        assertThat(completion.usage().estimated()).isTrue();
        assertThat(completion.usage().promptTokens()).isEqualTo(promptEstimate());
    }

    @Test
    void cancel_from_the_listener_is_an_interrupted_reply() {
        server.stalled(chunk("Hel"));
        OllamaClient client = client(true);
        CallCancel cancel = new CallCancel();

        Completion completion = client.complete(REQUEST, delta -> cancel.cancel(), cancel);

        assertThat(completion.interrupted()).isTrue();
        assertThat(completion.text()).isEqualTo("Hel");
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void cancel_ends_a_completion_even_after_a_probe_ran_beside_it() throws Exception {
        server.stalled(chunk("Hel"));
        server.json(200, "{}");
        OllamaClient client = client(true);
        CallCancel cancel = new CallCancel();
        CountDownLatch firstDelta = new CountDownLatch(1);
        CompletableFuture<Completion> completion = CompletableFuture.supplyAsync(
                () -> client.complete(REQUEST, delta -> firstDelta.countDown(), cancel));
        firstDelta.await();

        client.probe();
        cancel.cancel();

        assertThat(completion.get(5, TimeUnit.SECONDS).interrupted()).isTrue();
    }

    @Test
    void cancel_with_nothing_in_flight_is_harmless() {
        server.streamed("ok", 26, 1);
        OllamaClient client = client(true);

        new CallCancel().cancel();   // another call's cancel, with nothing in flight

        assertThat(client.complete(REQUEST, recordDeltas, new CallCancel()).interrupted()).isFalse();
    }

    // ---- probe ---------------------------------------------------------------------------------

    @Test
    void probe_asks_api_show_about_the_model_and_generates_nothing() throws Exception {
        server.json(200, "{\"modelfile\":\"FROM llama3.2\",\"parameters\":\"num_keep 24\",\"details\":{\"format\":"
                + "\"gguf\",\"family\":\"llama\"}}");

        keyed(true).probe();

        Received request = server.take();
        assertThat(request.request().getMethod()).isEqualTo("POST");
        assertThat(request.path()).isEqualTo("/api/show");
        assertThat(request.body().path("model").asText()).isEqualTo(MODEL);
        assertThat(request.body().size()).isEqualTo(1);
        assertThat(request.header("Authorization")).isEqualTo("Bearer " + KEY);
        assertThat(server.requestCount()).isEqualTo(1);
    }

    @Test
    void probe_of_a_model_not_pulled_is_fatal_and_says_ollama_pull() {
        server.modelNotFound(MODEL);

        assertThatThrownBy(() -> client(true).probe()).isInstanceOfSatisfying(FatalLlmException.class, e -> {
            assertThat(e.kind()).isEqualTo("http_404");
            assertThat(e.getMessage()).contains(endpoint, "ollama pull llama3.2");
        });
    }

    @Test
    void probe_of_a_server_not_running_or_a_login_page_is_retryable() throws IOException {
        MockWebServer gone = new MockWebServer();
        gone.start();
        String dead = gone.url("/").toString();
        gone.close();
        server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/html").body("<html>login</html>")
                .build());

        assertThatThrownBy(() -> client(settings(dead, true, Map.of(), "", "", Duration.ofSeconds(30))).probe())
                .isInstanceOfSatisfying(RetryableLlmException.class, e -> assertThat(e.kind()).isEqualTo("connect"));
        assertThatThrownBy(() -> client(true).probe())
                .isInstanceOfSatisfying(RetryableLlmException.class, e -> assertThat(e.kind()).isEqualTo("content_type"));
    }

    // ---- misc ----------------------------------------------------------------------------------

    @Test
    void endpoint_is_the_root_without_credentials_and_settings_never_show_the_key() {
        OllamaClient client = new OllamaClient(new OllamaSettings("http://user:pw@gpu-box:11434/v1/", MODEL));

        assertThat(client.endpoint()).isEqualTo("http://gpu-box:11434");
        assertThat(client.model()).isEqualTo(MODEL);
        assertThat(settings(endpoint, true, Map.of(), "", KEY, Duration.ofSeconds(1)).toString()).doesNotContain(KEY);
    }

    @Test
    void the_http_client_is_made_at_the_first_call_and_only_once() {
        AtomicInteger made = new AtomicInteger();
        OllamaSettings settings = settings(endpoint, true, Map.of(), "", "", Duration.ofSeconds(30));
        OllamaClient client = new OllamaClient(settings, () -> {
            made.incrementAndGet();
            return OllamaClient.httpClient(settings);
        }, CLOCK);
        assertThat(made).hasValue(0);

        server.streamed("one", 26, 1);
        server.json(200, "{}");
        client.complete(REQUEST, recordDeltas);
        client.probe();

        assertThat(made).hasValue(1);
    }

    @Test
    void a_base_url_that_is_not_a_url_is_rejected_up_front() {
        assertThatThrownBy(() -> new OllamaClient(new OllamaSettings("localhost:11434", MODEL)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("llm.base_url");
    }
}
