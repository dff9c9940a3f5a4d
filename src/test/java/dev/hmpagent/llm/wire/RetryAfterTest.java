package dev.hmpagent.llm.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RetryAfterTest {
    static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");

    @Test
    void retry_after_ms_wins_when_valid_and_is_ignored_when_not() {
        assertThat(RetryAfter.delay("1500", "30", NOW)).isEqualTo(Duration.ofMillis(1500));
        assertThat(RetryAfter.delay("250.5", null, NOW)).isEqualTo(Duration.ofNanos(250_500_000));
        assertThat(RetryAfter.delay("-5", "30", NOW)).isEqualTo(Duration.ofSeconds(30));
        assertThat(RetryAfter.delay("soon", "30", NOW)).isEqualTo(Duration.ofSeconds(30));
        assertThat(RetryAfter.delay(null, null, NOW)).isNull();
    }

    @Test
    void retry_after_is_seconds_or_an_http_date_and_a_past_date_is_now() {
        assertThat(RetryAfter.header(" 7 ", NOW)).isEqualTo(Duration.ofSeconds(7));
        assertThat(RetryAfter.header("Tue, 24 Nov 2026 10:00:12 GMT", NOW)).isEqualTo(Duration.ofSeconds(12));
        assertThat(RetryAfter.header("Tue, 24 Nov 2026 09:00:00 GMT", NOW)).isEqualTo(Duration.ZERO);
        assertThat(RetryAfter.header("tomorrow", NOW)).isNull();
        assertThat(RetryAfter.header("99999999999999999999", NOW)).isNull();
    }
}
