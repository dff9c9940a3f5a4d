package dev.hmpagent.llm.anthropic;

import dev.hmpagent.llm.FatalLlmException;
import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.Message;
import dev.hmpagent.llm.RetryableLlmException;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.testing.FakeAnthropicServer;
import mockwebserver3.MockResponse;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.hmpagent.testing.FakeAnthropicServer.MODEL;
import static dev.hmpagent.testing.FakeAnthropicServer.errorEvent;
import static dev.hmpagent.testing.FakeAnthropicServer.messageStart;
import static dev.hmpagent.testing.FakeAnthropicServer.textBlockStart;
import static dev.hmpagent.testing.FakeAnthropicServer.textDelta;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Anthropic's documented errors, as statuses and as error events mid-stream, reach the client as retryable or fatal
 * with one line that names the endpoint, says what to do, and never shows the key.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AnthropicErrorsTest {
    private static final String KEY = "sk-ant-api03-very-secret-key";
    private static final LlmRequest REQUEST = new LlmRequest(List.of(Message.user("Hi")), 0.2, 64);
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2025-01-01T00:00:00Z"), ZoneOffset.UTC);

    private final FakeAnthropicServer server;
    private final String endpoint;

    AnthropicErrorsTest() throws IOException {
        server = new FakeAnthropicServer();
        endpoint = server.baseUrl();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private AnthropicClient client(String key) {
        return client(endpoint, key, new OkHttpClient());
    }

    private static AnthropicClient client(String baseUrl, String key, OkHttpClient http) {
        return new AnthropicClient(new AnthropicSettings(baseUrl, key, MODEL, true, Duration.ofSeconds(5),
                Duration.ofSeconds(30)), dev.hmpagent.llm.wire.HttpCalls.constant(http), CLOCK);
    }

    private LlmException failure() {
        return failure(client(KEY));
    }

    private static LlmException failure(AnthropicClient client) {
        return catchThrowableOfType(LlmException.class, () -> client.complete(REQUEST, StreamListener.NONE));
    }

    private static void oneLineWithoutTheKey(LlmException e, String endpoint) {
        assertThat(e.getMessage()).contains("LLM endpoint " + endpoint).doesNotContain(KEY).doesNotContain("\n");
    }

    // ---- fatal statuses ------------------------------------------------------------------------

    @Test
    void http_400_invalid_request_is_fatal_and_says_what_to_check() {
        server.error(400, "invalid_request_error", "max_tokens: 900000 > 64000, which is the maximum allowed");

        LlmException e = failure();

        assertThat(e).isInstanceOf(FatalLlmException.class);
        assertThat(e.kind()).isEqualTo("http_400");
        assertThat(e.getMessage()).isEqualTo("LLM endpoint " + endpoint + " refused the request as invalid (HTTP 400:"
                + " max_tokens: 900000 > 64000, which is the maximum allowed): check llm.model, llm.max_tokens and the"
                + " prompt size (context.prompt_budget_tokens)");
        assertThat(server.requestCount()).as("no retry of any kind").isEqualTo(1);
    }

    @Test
    void http_401_is_fatal_rejected_credentials_naming_the_variable_and_never_the_key() {
        server.error(401, "authentication_error", "invalid x-api-key " + KEY);

        LlmException e = failure();

        assertThat(e).isInstanceOf(FatalLlmException.class);
        assertThat(e.kind()).isEqualTo("http_401");
        assertThat(e.authRejected()).isTrue();
        assertThat(e.getMessage()).isEqualTo("LLM endpoint " + endpoint + " rejected the API key (HTTP 401: invalid"
                + " x-api-key ***): set ANTHROPIC_API_KEY or llm.api_key");
    }

    @Test
    void http_401_without_a_key_says_none_was_sent() {
        server.error(401, "authentication_error", "x-api-key header is required");

        LlmException e = failure(client(""));

        assertThat(e.getMessage()).contains("rejected the request without an API key", "ANTHROPIC_API_KEY");
    }

    @Test
    void http_403_permission_is_fatal_rejected_credentials() {
        server.error(403, "permission_error", "Your API key does not have permission to use the specified resource.");

        LlmException e = failure();

        assertThat(e).isInstanceOf(FatalLlmException.class);
        assertThat(e.authRejected()).isTrue();
        assertThat(e.getMessage()).contains("HTTP 403", "does not have permission", "Anthropic Console",
                "ANTHROPIC_API_KEY");
        oneLineWithoutTheKey(e, endpoint);
    }

    @Test
    void http_404_not_found_is_fatal_and_names_the_model() {
        server.error(404, "not_found_error", "model: " + MODEL);

        LlmException e = failure();

        assertThat(e).isInstanceOf(FatalLlmException.class);
        assertThat(e.kind()).isEqualTo("http_404");
        assertThat(e.getMessage()).isEqualTo("LLM endpoint " + endpoint + ": model \"" + MODEL + "\" not found (HTTP 404:"
                + " model: " + MODEL + "): check llm.model (an Anthropic model id) and llm.base_url");
    }

    @Test
    void http_413_from_the_edge_as_html_is_fatal_too_large() {
        server.enqueue(new MockResponse.Builder().code(413).setHeader("Content-Type", "text/html")
                .body("<html><head><title>413 Request Entity Too Large</title></head></html>").build());

        LlmException e = failure();

        assertThat(e).isInstanceOf(FatalLlmException.class);
        assertThat(e.kind()).isEqualTo("http_413");
        assertThat(e.getMessage()).contains("too large", "Request Entity Too Large", "context.prompt_budget_tokens");
        oneLineWithoutTheKey(e, endpoint);
    }

    // ---- retryable statuses --------------------------------------------------------------------

    @Test
    void http_429_rate_limit_is_retryable_after_the_servers_retry_after() {
        server.error(429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit",
                "retry-after", "7");

        LlmException e = failure();

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("http_429");
        assertThat(e.quotaExhausted()).isFalse();
        assertThat(((RetryableLlmException) e).retryAfter()).contains(Duration.ofSeconds(7));
        assertThat(e.getMessage()).contains(endpoint, "is rate limiting", "per-minute rate limit", "Retry-After 7s");
    }

    @Test
    void a_retry_after_date_counts_from_the_clock() {
        server.error(429, "rate_limit_error", "slow down", "retry-after", "Wed, 01 Jan 2025 00:01:30 GMT");

        assertThat(((RetryableLlmException) failure()).retryAfter()).contains(Duration.ofSeconds(90));
    }

    @Test
    void http_500_api_error_and_529_overloaded_are_retryable() {
        server.error(500, "api_error", "Internal server error").error(529, "overloaded_error", "Overloaded");

        LlmException internal = failure();
        LlmException overloaded = failure();

        assertThat(internal).isInstanceOf(RetryableLlmException.class);
        assertThat(internal.kind()).isEqualTo("http_500");
        assertThat(((RetryableLlmException) internal).retryAfter()).isEmpty();
        assertThat(overloaded).isInstanceOf(RetryableLlmException.class);
        assertThat(overloaded.kind()).isEqualTo("http_529");
        assertThat(overloaded.getMessage()).isEqualTo("LLM endpoint " + endpoint
                + " is overloaded (HTTP 529: Overloaded): will retry later");
    }

    @Test
    void x_should_retry_is_honoured_both_ways() {
        server.error(529, "overloaded_error", "Overloaded", "x-should-retry", "false")
                .error(400, "invalid_request_error", "try again", "x-should-retry", "true", "retry-after", "2");

        LlmException notAgain = failure();
        LlmException again = failure();

        assertThat(notAgain).isInstanceOf(FatalLlmException.class);
        assertThat(notAgain.getMessage()).contains("x-should-retry: false");
        assertThat(again).isInstanceOf(RetryableLlmException.class);
        assertThat(((RetryableLlmException) again).retryAfter()).contains(Duration.ofSeconds(2));
    }

    // ---- an exhausted credit balance or spend limit --------------------------------------------

    @Test
    void a_400_saying_the_credit_balance_is_too_low_is_an_exhausted_quota() {
        server.error(400, "invalid_request_error", "Your credit balance is too low to access the Anthropic API. Please go"
                + " to Plans & Billing to upgrade or purchase credits.");

        LlmException e = failure();

        assertThat(e).isInstanceOf(FatalLlmException.class);
        assertThat(e.kind()).isEqualTo(LlmException.INSUFFICIENT_QUOTA);
        assertThat(e.quotaExhausted()).isTrue();
        assertThat(e.authRejected()).isFalse();
        assertThat(e.getMessage()).contains("credit or spend limit is exhausted", "credit balance is too low",
                "Anthropic Console", "llm.base_url");
        oneLineWithoutTheKey(e, endpoint);
    }

    @Test
    void billing_errors_and_an_enforced_spend_limit_are_exhausted_quotas_whatever_the_server_says_about_retrying() {
        server.error(402, "billing_error", "There is an issue with your billing information.")
                .json(429, "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"Monthly spend"
                        + " cap reached\",\"details\":{\"error_code\":\"enforced_spend_limit_reached\"}}}",
                        "x-should-retry", "true");

        assertThat(failure().quotaExhausted()).isTrue();
        LlmException capped = failure();
        assertThat(capped).isInstanceOf(FatalLlmException.class);
        assertThat(capped.quotaExhausted()).isTrue();
    }

    @Test
    void an_ordinary_invalid_request_is_not_a_quota_problem() {
        server.error(400, "invalid_request_error", "messages: roles must alternate");

        assertThat(failure().quotaExhausted()).isFalse();
    }

    // ---- errors mid-stream ---------------------------------------------------------------------

    @Test
    void api_and_rate_limit_errors_mid_stream_are_retryable_with_the_text_so_far() {
        String start = messageStart(10) + textBlockStart(0) + textDelta(0, "Par");
        server.events(start, errorEvent("api_error", "Internal server error"))
                .events(start, errorEvent("rate_limit_error", "slow down"))
                .events(start, errorEvent("some_future_error", "?"));

        for (String type : new String[] {"api_error", "rate_limit_error", "some_future_error"}) {
            LlmException e = failure();
            assertThat(e).as(type).isInstanceOf(RetryableLlmException.class);
            assertThat(((RetryableLlmException) e).partialText()).as(type).isEqualTo("Par");
            assertThat(e.getMessage()).as(type).contains(endpoint, "mid-reply", type);
        }
    }

    @Test
    void fatal_error_types_mid_stream_are_as_fatal_as_their_status() {
        String start = messageStart(10) + textBlockStart(0);
        server.events(start, errorEvent("authentication_error", "invalid x-api-key"))
                .events(start, errorEvent("invalid_request_error", "Your credit balance is too low to access the API."));

        LlmException rejected = failure();
        LlmException broke = failure();

        assertThat(rejected).isInstanceOf(FatalLlmException.class);
        assertThat(rejected.kind()).isEqualTo("http_401");
        assertThat(rejected.authRejected()).isTrue();
        assertThat(rejected.getMessage()).contains("mid-reply", "ANTHROPIC_API_KEY");
        assertThat(broke.kind()).isEqualTo(LlmException.INSUFFICIENT_QUOTA);
    }

    // ---- the key never shows -------------------------------------------------------------------

    @Test
    void no_status_ever_shows_the_key_even_when_the_server_echoes_it() {
        int[] codes = {400, 401, 402, 403, 404, 409, 413, 418, 429, 500, 504, 529};
        for (int code : codes) server.error(code, "error_" + code, "request with key " + KEY + " refused\nsecond line");

        for (int code : codes) {
            LlmException e = failure();
            assertThat(e.kind()).as("HTTP %d", code).isIn("http_" + code, LlmException.INSUFFICIENT_QUOTA);
            oneLineWithoutTheKey(e, endpoint);
        }
    }

    // ---- transport -----------------------------------------------------------------------------

    @Test
    void nothing_listening_is_a_retryable_connect_failure_with_advice() throws IOException {
        FakeAnthropicServer gone = new FakeAnthropicServer();
        String deadBase = gone.baseUrl();
        gone.close();

        LlmException e = failure(client(deadBase, KEY, new OkHttpClient()));

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("connect");
        assertThat(e.getMessage()).isEqualTo("LLM endpoint " + deadBase + " is not reachable (connection refused):"
                + " check the network connection and llm.base_url");
    }

    @Test
    void an_unknown_host_is_a_retryable_dns_failure_naming_the_host() {
        LlmException e = failure(client("https://no-such-host.invalid", KEY, new OkHttpClient()));

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("dns");
        assertThat(e.getMessage()).contains("no-such-host.invalid", "llm.base_url").doesNotContain(KEY);
    }

    @Test
    void a_silent_server_is_a_retryable_timeout() {
        server.stalled("");
        OkHttpClient impatient = new OkHttpClient.Builder().readTimeout(Duration.ofMillis(200)).build();

        LlmException e = failure(client(endpoint, KEY, impatient));

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("timeout");
        assertThat(e.getMessage()).contains(endpoint, "llm.read_timeout_s");
    }
}
