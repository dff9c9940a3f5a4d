package dev.hmpagent.llm.wire;

import dev.hmpagent.llm.FatalLlmException;
import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.RetryableLlmException;
import okhttp3.Headers;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

class WireErrorsTest {
    private static final String KEY = "key-shh-987";
    private final WireErrors errors = new WireErrors("https://llm.example", "llm.example", KEY, Duration.ofSeconds(60),
            Clock.fixed(Instant.parse("2025-01-01T00:00:00Z"), ZoneOffset.UTC), "check the network and llm.base_url");

    @Test
    void retryable_statuses_carry_the_retry_after_and_say_so() {
        LlmException e = errors.status(529, Headers.of("retry-after", "12"), "Overloaded", "unused");

        assertThat(e).isInstanceOf(RetryableLlmException.class);
        assertThat(e.kind()).isEqualTo("http_529");
        assertThat(((RetryableLlmException) e).retryAfter()).contains(Duration.ofSeconds(12));
        assertThat(e.getMessage()).isEqualTo("LLM endpoint https://llm.example is overloaded (HTTP 529: Overloaded):"
                + " will retry later (Retry-After 12s)");
    }

    @Test
    void other_statuses_are_fatal_with_the_providers_refusal_scrubbed_and_on_one_line() {
        LlmException e = errors.status(400, Headers.of(), "bad", "LLM endpoint said no to " + KEY + "\nreally");

        assertThat(e).isInstanceOf(FatalLlmException.class);
        assertThat(e.kind()).isEqualTo("http_400");
        assertThat(e.getMessage()).isEqualTo("LLM endpoint said no to *** really");
    }

    @Test
    void x_should_retry_overrides_the_status_rule() {
        assertThat(errors.status(500, Headers.of("x-should-retry", "false"), null, "r").retryable()).isFalse();
        assertThat(errors.status(403, Headers.of("x-should-retry", "TRUE"), null, "r").retryable()).isTrue();
        assertThat(errors.status(403, Headers.of("x-should-retry", "perhaps"), null, "r").retryable()).isFalse();
    }

    @Test
    void the_detail_is_a_short_scrubbed_excerpt_or_nothing() {
        assertThat(errors.detail(null)).isEmpty();
        assertThat(errors.detail("  ")).isEmpty();
        assertThat(errors.detail("no\n" + KEY)).isEqualTo(": no ***");
        assertThat(errors.detail("y".repeat(500))).hasSize(2 + WireErrors.EXCERPT_MAX);
    }

    @Test
    void an_unreachable_server_gets_the_providers_advice() {
        LlmException e = errors.io(new ConnectException("Connection refused"), "");

        assertThat(e.kind()).isEqualTo("connect");
        assertThat(e.getMessage()).isEqualTo("LLM endpoint https://llm.example is not reachable (connection refused):"
                + " check the network and llm.base_url");
    }

    @Test
    void a_truncated_stream_names_what_it_lacked_and_keeps_the_partial_text() {
        var e = (RetryableLlmException) errors.io(
                new ReplyException(ReplyException.TRUNCATED, "no message_stop", null), "Hel");

        assertThat(e.kind()).isEqualTo("truncated");
        assertThat(e.partialText()).isEqualTo("Hel");
        assertThat(e.getMessage()).isEqualTo("LLM endpoint https://llm.example closed the stream before the reply was"
                + " complete (no message_stop) after 3 characters: will retry");
    }
}
