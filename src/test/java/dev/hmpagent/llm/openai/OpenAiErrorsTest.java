package dev.hmpagent.llm.openai;

import dev.hmpagent.llm.LlmException;
import okhttp3.Headers;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

class OpenAiErrorsTest {
    private static final String KEY = "sk-secret-123";
    private final OpenAiErrors errors = new OpenAiErrors("http://localhost:11434/v1", "localhost", KEY, "llama3",
            Duration.ofSeconds(120), Clock.fixed(Instant.parse("2025-01-01T00:00:00Z"), ZoneOffset.UTC));

    @Test
    void retry_after_accepts_delta_seconds_and_http_dates_relative_to_the_clock() {
        assertThat(errors.retryAfter("7")).isEqualTo(Duration.ofSeconds(7));
        assertThat(errors.retryAfter("Wed, 01 Jan 2025 00:00:30 GMT")).isEqualTo(Duration.ofSeconds(30));
        assertThat(errors.retryAfter("Tue, 31 Dec 2024 23:00:00 GMT")).isEqualTo(Duration.ZERO);
        assertThat(errors.retryAfter("soon")).isNull();
        assertThat(errors.retryAfter(null)).isNull();
    }

    @Test
    void retry_after_ms_accepts_non_negative_milliseconds_and_ignores_anything_else() {
        assertThat(OpenAiErrors.retryAfterMs("1500")).isEqualTo(Duration.ofMillis(1500));
        assertThat(OpenAiErrors.retryAfterMs(" 0 ")).isEqualTo(Duration.ZERO);
        assertThat(OpenAiErrors.retryAfterMs("250.5")).isEqualTo(Duration.ofNanos(250_500_000));
        for (String invalid : new String[] {null, "", "-1", "1e3", "soon", "1,5", "NaN", "9".repeat(13)}) {
            assertThat(OpenAiErrors.retryAfterMs(invalid)).as("\"%s\"", invalid).isNull();
        }
    }

    @Test
    void retry_after_ms_wins_over_retry_after_only_when_valid() {
        assertThat(errors.retryDelay(Headers.of("retry-after-ms", "1500", "Retry-After", "2")))
                .isEqualTo(Duration.ofMillis(1500));
        assertThat(errors.retryDelay(Headers.of("retry-after-ms", "later", "Retry-After", "2")))
                .isEqualTo(Duration.ofSeconds(2));
        assertThat(errors.retryDelay(Headers.of())).isNull();
    }

    @Test
    void x_should_retry_overrides_the_status_rule_but_not_an_exhausted_quota() {
        assertThat(errors.http(429, Headers.of("x-should-retry", "false"), null, false).retryable()).isFalse();
        assertThat(errors.http(500, Headers.of("x-should-retry", "false"), null, false).retryable()).isFalse();
        assertThat(errors.http(400, Headers.of("x-should-retry", "true"), null, false).retryable()).isTrue();
        assertThat(errors.http(400, Headers.of("x-should-retry", "1"), null, false).retryable()).isFalse();
        assertThat(errors.http(429, Headers.of("x-should-retry", "true"), null, true).kind())
                .isEqualTo("insufficient_quota");
    }

    @Test
    void excerpts_are_one_short_line_without_the_key() {
        String excerpt = errors.excerpt("bad key " + KEY + "\n" + "x".repeat(500));
        assertThat(excerpt).doesNotContain(KEY).doesNotContain("\n").hasSizeLessThanOrEqualTo(200);
    }

    @Test
    void transport_failures_map_to_retryable_kinds_with_advice() {
        LlmException connect = errors.io(new ConnectException("Failed to connect"));
        LlmException dns = errors.io(new UnknownHostException("localhost"));
        LlmException timeout = errors.io(new SocketTimeoutException("timeout"));

        assertThat(connect.kind()).isEqualTo("connect");
        assertThat(connect.getMessage()).isEqualTo("LLM endpoint http://localhost:11434/v1 is not reachable "
                + "(connection refused): start the server (e.g. \"ollama serve\") or set llm.base_url");
        assertThat(dns.kind()).isEqualTo("dns");
        assertThat(dns.getMessage()).contains("localhost", "llm.base_url");
        assertThat(timeout.kind()).isEqualTo("timeout");
        assertThat(timeout.getMessage()).contains("120s", "llm.read_timeout_s");
        assertThat(new LlmException[] {connect, dns, timeout}).allMatch(LlmException::retryable);
    }

    @Test
    void http_statuses_map_to_fatal_or_retryable() {
        assertThat(errors.http(401, null, null).retryable()).isFalse();
        assertThat(errors.http(403, null, null).kind()).isEqualTo("http_403");
        assertThat(errors.http(422, null, "nope").kind()).isEqualTo("http_422");
        assertThat(errors.http(422, null, "nope").retryable()).isFalse();
        for (int code : new int[] {408, 409, 429, 500, 502, 503}) {
            assertThat(errors.http(code, null, null).retryable()).as("HTTP %d", code).isTrue();
        }
    }

    @Test
    void only_401_and_403_count_as_rejected_credentials() {
        assertThat(errors.http(401, null, null).authRejected()).isTrue();
        assertThat(errors.http(403, null, null).authRejected()).isTrue();
        for (int code : new int[] {400, 404, 408, 422, 429, 500, 503}) {
            assertThat(errors.http(code, null, null).authRejected()).as("HTTP %d", code).isFalse();
        }
        assertThat(errors.io(new ConnectException("Failed to connect")).authRejected()).isFalse();
    }

    @Test
    void rejected_credentials_say_once_what_to_do_and_never_show_the_key() {
        for (int code : new int[] {401, 403}) {
            String message = errors.http(code, null, "key " + KEY + " is not allowed\nhere").getMessage();
            assertThat(message).as("HTTP %d", code).doesNotContain(KEY).doesNotContain("\n")
                    .contains("http://localhost:11434/v1", "HTTP " + code, "llm.api_key");
            assertThat(message.split("OPENAI_API_KEY", -1)).as("HTTP %d names the variable once", code).hasSize(2);
        }
    }

    @Test
    void a_missed_deadline_names_the_setting_and_carries_the_partial_text() {
        var e = errors.deadline(Duration.ofSeconds(300), "Hel", null);

        assertThat(e.kind()).isEqualTo("deadline");
        assertThat(e.partialText()).isEqualTo("Hel");
        assertThat(e.getMessage()).isEqualTo("LLM endpoint http://localhost:11434/v1 did not finish its reply within"
                + " 300 s (llm.call_deadline_s): 3 characters arrived; will retry");
        assertThat(errors.deadline(Duration.ofMillis(1500), "", null).getMessage()).contains("within 1.5 s");
    }
}
