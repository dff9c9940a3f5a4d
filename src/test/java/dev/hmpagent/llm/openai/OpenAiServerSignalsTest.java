package dev.hmpagent.llm.openai;

import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.FatalLlmException;
import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.Message;
import dev.hmpagent.llm.RetryableLlmException;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.testing.FakeOpenAiServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * What OpenAI and compatible servers say besides the status: {@code retry-after-ms}, {@code x-should-retry},
 * an exhausted quota; and a reply that never stops. Against the fake server, one request per call.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OpenAiServerSignalsTest {
    private static final String KEY = "sk-quota-key-42";
    private static final LlmRequest REQUEST = new LlmRequest(List.of(Message.user("Hi")), 0.2, 64);

    private final FakeOpenAiServer server;

    OpenAiServerSignalsTest() throws IOException {
        server = new FakeOpenAiServer();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private OpenAiClient client(boolean stream) {
        return new OpenAiClient(new OpenAiSettings(server.baseUrl(), KEY, "test-model", stream,
                Duration.ofSeconds(5), Duration.ofSeconds(30)));
    }

    private LlmException failure() {
        return catchThrowableOfType(LlmException.class, () -> client(true).complete(REQUEST, StreamListener.NONE));
    }

    private static Duration retryAfter(LlmException e) {
        assertThat(e).isInstanceOf(RetryableLlmException.class);
        return ((RetryableLlmException) e).retryAfter().orElse(null);
    }

    @Test
    void retry_after_ms_wins_over_retry_after_because_it_is_more_precise() {
        server.status(429, "{\"error\":{\"message\":\"Rate limit reached\"}}", "retry-after-ms", "1500",
                "Retry-After", "2");

        LlmException e = failure();

        assertThat(e.kind()).isEqualTo("http_429");
        assertThat(retryAfter(e)).isEqualTo(Duration.ofMillis(1500));
        assertThat(e.getMessage()).contains("Retry-After 1.5s");
        assertThat(server.requestCount()).isEqualTo(1);
    }

    @Test
    void retry_after_ms_alone_is_honoured_on_a_503() {
        server.status(503, "{\"error\":{\"message\":\"overloaded\"}}", "retry-after-ms", "250");

        assertThat(retryAfter(failure())).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void an_invalid_retry_after_ms_is_ignored_and_retry_after_applies() {
        for (String invalid : new String[] {"-5", "soon", "1e3", ""}) {
            server.status(429, "{\"error\":{\"message\":\"slow down\"}}", "retry-after-ms", invalid, "Retry-After", "3");

            assertThat(retryAfter(failure())).as("retry-after-ms \"%s\"", invalid).isEqualTo(Duration.ofSeconds(3));
        }
        assertThat(server.requestCount()).isEqualTo(4);
    }

    @Test
    void x_should_retry_false_makes_a_429_or_503_fatal() {
        server.status(429, "{\"error\":{\"message\":\"slow down\"}}", "x-should-retry", "false", "retry-after-ms", "100")
                .status(503, "{\"error\":{\"message\":\"down\"}}", "x-should-retry", "false");

        LlmException limited = failure();
        LlmException down = failure();

        assertThat(limited).isInstanceOf(FatalLlmException.class);
        assertThat(limited.kind()).isEqualTo("http_429");
        assertThat(limited.getMessage()).contains("x-should-retry: false", "slow down").doesNotContain(KEY);
        assertThat(down).isInstanceOf(FatalLlmException.class);
        assertThat(down.kind()).isEqualTo("http_503");
        assertThat(server.requestCount()).isEqualTo(2);
    }

    @Test
    void x_should_retry_true_makes_a_400_retryable_and_skips_the_non_streaming_fallback() {
        server.status(400, "{\"error\":{\"message\":\"try again\"}}", "x-should-retry", "true", "retry-after-ms", "20");

        LlmException e = failure();

        assertThat(e.kind()).isEqualTo("http_400");
        assertThat(retryAfter(e)).isEqualTo(Duration.ofMillis(20));
        assertThat(e.getMessage()).contains("x-should-retry: true", "will retry");
        assertThat(server.requestCount()).as("a retryable 400 is not the stream being refused").isEqualTo(1);
    }

    @Test
    void any_other_x_should_retry_value_leaves_the_usual_rule() {
        server.status(429, "{\"error\":{\"message\":\"slow down\"}}", "x-should-retry", "maybe")
                .status(422, "{\"error\":{\"message\":\"bad\"}}", "x-should-retry", "yes");

        assertThat(failure()).isInstanceOf(RetryableLlmException.class);
        assertThat(failure()).isInstanceOf(FatalLlmException.class);
    }

    @Test
    void insufficient_quota_is_fatal_says_what_to_do_and_never_shows_the_key() {
        server.insufficientQuota();

        LlmException e = failure();

        assertThat(e).isInstanceOf(FatalLlmException.class);
        assertThat(e.kind()).isEqualTo("insufficient_quota");
        assertThat(e.quotaExhausted()).isTrue();
        assertThat(e.authRejected()).isFalse();
        assertThat(e.getMessage()).contains(server.baseUrl().replaceAll("/+$", ""), "quota or credit is exhausted",
                        "billing", "llm.base_url", "You exceeded your current quota")
                .doesNotContain(KEY).doesNotContain("\n");
        assertThat(server.requestCount()).isEqualTo(1);
    }

    @Test
    void insufficient_quota_is_fatal_even_when_the_server_says_to_retry() {
        server.status(429, "{\"error\":{\"message\":\"no credit\",\"type\":\"insufficient_quota\"}}",
                "x-should-retry", "true", "retry-after-ms", "10");

        LlmException e = failure();

        assertThat(e).isInstanceOf(FatalLlmException.class);
        assertThat(e.kind()).isEqualTo("insufficient_quota");
    }

    @Test
    void a_plain_rate_limit_is_not_a_quota_problem() {
        server.status(429, "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\","
                + "\"code\":\"rate_limit_exceeded\"}}");

        LlmException e = failure();

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.quotaExhausted()).isFalse();
    }

    @Test
    void a_runaway_stream_is_cut_at_the_reply_cap_with_finish_reason_length_and_the_connection_closed()
            throws InterruptedException {
        CountDownLatch closed = new CountDownLatch(1);
        server.runaway(closed);

        Completion completion = client(true).complete(REQUEST, StreamListener.NONE);

        assertThat(completion.text()).hasSize(OpenAiClient.MAX_REPLY_CHARS);
        assertThat(completion.finishReason()).isEqualTo("length");
        assertThat(completion.interrupted()).isFalse();
        assertThat(closed.await(30, TimeUnit.SECONDS)).as("the client closed the connection").isTrue();
        assertThat(server.requestCount()).isEqualTo(1);
    }

    @Test
    void a_5_mb_non_streamed_reply_is_cut_at_the_reply_cap_with_finish_reason_length() {
        String content = "z".repeat(5 * 1024 * 1024);
        server.plain(content, 10, 10);

        Completion completion = client(false).complete(REQUEST, StreamListener.NONE);

        assertThat(completion.text()).hasSize(OpenAiClient.MAX_REPLY_CHARS);
        assertThat(completion.finishReason()).isEqualTo("length");
        assertThat(server.requestCount()).isEqualTo(1);
    }
}
