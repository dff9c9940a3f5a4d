package dev.hmpagent.llm;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BackoffTest {
    private final Backoff backoff = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30));

    @Test
    void delays_double_from_initial_with_each_consecutive_failure() {
        assertThat(backoff.delay(1, Optional.empty())).isEqualTo(Duration.ofSeconds(1));
        assertThat(backoff.delay(2, Optional.empty())).isEqualTo(Duration.ofSeconds(2));
        assertThat(backoff.delay(3, Optional.empty())).isEqualTo(Duration.ofSeconds(4));
        assertThat(backoff.delay(4, Optional.empty())).isEqualTo(Duration.ofSeconds(8));
        assertThat(backoff.delay(5, Optional.empty())).isEqualTo(Duration.ofSeconds(16));
    }

    @Test
    void delays_are_capped_at_max_even_for_huge_failure_counts() {
        assertThat(backoff.delay(6, Optional.empty())).isEqualTo(Duration.ofSeconds(30));
        assertThat(backoff.delay(100, Optional.empty())).isEqualTo(Duration.ofSeconds(30));
        assertThat(backoff.delay(Integer.MAX_VALUE, Optional.empty())).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void delays_are_deterministic() {
        assertThat(backoff.delay(3, Optional.empty())).isEqualTo(backoff.delay(3, Optional.empty()));
    }

    @Test
    void server_retry_after_is_used_as_is_even_beyond_max_or_below_computed() {
        assertThat(backoff.delay(1, Optional.of(Duration.ofSeconds(90)))).isEqualTo(Duration.ofSeconds(90));
        assertThat(backoff.delay(5, Optional.of(Duration.ofSeconds(2)))).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void server_retry_after_is_capped_at_one_hour_and_never_below_the_first_step() {
        assertThat(backoff.delay(1, Optional.of(Duration.ofHours(5)))).isEqualTo(Duration.ofHours(1));
        assertThat(backoff.delay(1, Optional.of(Duration.ofSeconds(-3)))).isEqualTo(backoff.initial());
        assertThat(backoff.delay(7, Optional.of(Duration.ZERO))).as("'retry now' must not mean hammering")
                .isEqualTo(backoff.initial());
    }

    @Test
    void rejects_nonsense_arguments() {
        assertThatThrownBy(() -> backoff.delay(0, Optional.empty())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(5), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void jitter_from_the_injected_source_takes_up_to_half_of_a_step_never_below_the_first_nor_from_retry_after() {
        Backoff jittered = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(60), () -> 1.0);
        assertThat(jittered.delay(4, java.util.Optional.empty())).isEqualTo(Duration.ofSeconds(4));
        assertThat(jittered.delay(1, java.util.Optional.empty())).as("never below the first step").isEqualTo(Duration.ofSeconds(1));
        assertThat(jittered.delay(10, java.util.Optional.empty())).isEqualTo(Duration.ofSeconds(30));
        assertThat(jittered.delay(4, java.util.Optional.of(Duration.ofSeconds(2)))).as("Retry-After is exact")
                .isEqualTo(Duration.ofSeconds(2));
        Backoff none = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(60), () -> 0.0);
        assertThat(none.delay(4, java.util.Optional.empty())).isEqualTo(Duration.ofSeconds(8));
    }
}
