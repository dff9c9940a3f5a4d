package dev.hmpagent.llm.ollama;

import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.RetryableLlmException;
import dev.hmpagent.llm.wire.ReplyException;
import okhttp3.Headers;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

/** Every status and transport failure maps to one retryable-or-fatal line naming the endpoint, never the key. */
class OllamaErrorsTest {
    private static final String KEY = "ollama-secret-123";
    private static final String ENDPOINT = "http://localhost:11434";
    private final OllamaErrors errors = new OllamaErrors(ENDPOINT, "localhost", KEY, "llama3.2",
            Duration.ofSeconds(120), Clock.fixed(Instant.parse("2025-01-01T00:00:00Z"), ZoneOffset.UTC));

    private LlmException http(int code, String message) {
        return errors.http(code, Headers.of(), message, "/api/chat");
    }

    @Test
    void the_servers_failures_are_retryable_and_refusals_fatal() {
        for (int code : new int[] {408, 429, 500, 502, 503, 504, 507}) {
            assertThat(http(code, "x").retryable()).as("HTTP %d", code).isTrue();
            assertThat(http(code, "x").kind()).isEqualTo("http_" + code);
        }
        for (int code : new int[] {400, 401, 403, 404, 405, 413, 422}) {
            assertThat(http(code, "x").retryable()).as("HTTP %d", code).isFalse();
            assertThat(http(code, "x").kind()).isEqualTo("http_" + code);
        }
    }

    @Test
    void exhausted_credit_is_fatal_and_counts_as_quota() {
        LlmException e = http(402, "payment required");

        assertThat(e.retryable()).isFalse();
        assertThat(e.quotaExhausted()).isTrue();
        assertThat(e.getMessage()).contains(ENDPOINT, "HTTP 402", "not retried");
    }

    @Test
    void a_404_names_ollama_pull_only_when_the_model_is_missing() {
        assertThat(http(404, "model 'llama3.2' not found").getMessage()).contains("ollama pull llama3.2");
        assertThat(http(404, "model \"llama3.2\" not found, try pulling it first").getMessage())
                .contains("ollama pull llama3.2");
        assertThat(errors.http(404, Headers.of(), "404 page not found", "/api/show").getMessage())
                .contains("has no /api/show", "llm.base_url").doesNotContain("ollama pull");
    }

    @Test
    void every_message_is_one_line_naming_the_endpoint_without_the_key() {
        for (int code : new int[] {400, 401, 402, 403, 404, 429, 500, 503, 302}) {
            String message = http(code, "key " + KEY + "\nrejected " + "x".repeat(400)).getMessage();
            assertThat(message).as("HTTP %d", code).contains(ENDPOINT).doesNotContain(KEY).doesNotContain("\n")
                    .doesNotContain("x".repeat(201));
        }
    }

    @Test
    void the_key_message_tells_a_keyless_request_from_a_refused_key() {
        OllamaErrors keyless = new OllamaErrors(ENDPOINT, "localhost", "", "llama3.2", Duration.ofSeconds(1),
                Clock.systemUTC());

        assertThat(keyless.http(401, Headers.of(), "unauthorized", "/api/chat").getMessage())
                .contains("without an API key", "OLLAMA_API_KEY");
        assertThat(http(403, "forbidden").getMessage()).contains("rejected the API key");
        assertThat(http(401, null).authRejected()).isTrue();
        assertThat(http(403, null).authRejected()).isTrue();
        assertThat(http(404, null).authRejected()).isFalse();
    }

    @Test
    void retry_after_ms_wins_over_retry_after_and_a_wait_is_said() {
        var e = (RetryableLlmException) errors.http(503, Headers.of("retry-after-ms", "1500", "Retry-After", "2"),
                "server busy", "/api/chat");

        assertThat(e.retryAfter()).contains(Duration.ofMillis(1500));
        assertThat(e.getMessage()).isEqualTo("LLM endpoint http://localhost:11434 is busy (request queue full or"
                + " overloaded) (HTTP 503: server busy): will retry later (Retry-After 1.5s)");
    }

    @Test
    void transport_failures_are_retryable_with_advice() {
        LlmException refused = errors.io(new ConnectException("Failed to connect to localhost/127.0.0.1:11434"), "");
        LlmException noRoute = errors.io(new NoRouteToHostException("No route"), "");
        LlmException dns = errors.io(new UnknownHostException("gpu-box"), "");
        LlmException read = errors.io(new SocketTimeoutException("timeout"), "");
        LlmException connect = errors.io(new SocketTimeoutException("connect timed out"), "");
        LlmException other = errors.io(new IOException("unexpected end of stream"), "Hel");

        assertThat(refused.getMessage()).isEqualTo("LLM endpoint http://localhost:11434 is not reachable (connection"
                + " refused): start it with \"ollama serve\" or set OLLAMA_HOST / llm.base_url");
        assertThat(noRoute.getMessage()).contains("no route to host");
        assertThat(dns.kind()).isEqualTo("dns");
        assertThat(dns.getMessage()).contains("\"localhost\" not found", "llm.base_url");
        assertThat(read.kind()).isEqualTo("timeout");
        assertThat(read.getMessage()).contains("120s", "llm.read_timeout_s");
        assertThat(connect.getMessage()).contains("did not accept the connection");
        assertThat(other.kind()).isEqualTo("io");
        assertThat(((RetryableLlmException) other).partialText()).isEqualTo("Hel");
        assertThat(new LlmException[] {refused, noRoute, dns, read, connect, other}).allMatch(LlmException::retryable);
    }

    @Test
    void unusable_replies_carry_the_text_so_far() {
        var truncated = (RetryableLlmException) errors.io(
                new ReplyException(ReplyException.TRUNCATED, "stream ended without \"done\": true", null), "Héllo");
        var failed = (RetryableLlmException) errors.io(
                new ReplyException(ReplyException.STREAM_ERROR, "server reported an error: boom", null), "He");

        assertThat(truncated.getMessage()).isEqualTo("LLM endpoint http://localhost:11434 closed the stream before the"
                + " reply was complete (stream ended without \"done\": true) after 5 characters: will retry");
        assertThat(truncated.partialText()).isEqualTo("Héllo");
        assertThat(failed.kind()).isEqualTo("stream_error");
        assertThat(failed.getMessage()).endsWith("failed mid-reply: server reported an error: boom");
    }

    @Test
    void a_missed_deadline_names_the_setting() {
        var e = errors.deadline(Duration.ofSeconds(300), "Hel", null);

        assertThat(e.getMessage()).isEqualTo("LLM endpoint http://localhost:11434 did not finish its reply within"
                + " 300 s (llm.call_deadline_s): 3 characters arrived; will retry");
        assertThat(e.partialText()).isEqualTo("Hel");
    }
}
