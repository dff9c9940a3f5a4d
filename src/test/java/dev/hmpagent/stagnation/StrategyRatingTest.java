package dev.hmpagent.stagnation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class StrategyRatingTest {
    @Test
    void a_new_reply_within_the_rating_ticks_rates_plus_one_at_once() {
        assertThat(StrategyRating.rate(0.3, 3, List.of(0.1, 0.45))).hasValue(1);
        assertThat(StrategyRating.rate(0.3, 3, List.of(0.3))).as("the threshold itself is new enough").hasValue(1);
        assertThat(StrategyRating.rate(0.3, 3, List.of(0.1, 0.1, 0.9, 0.0))).hasValue(1);
    }

    @Test
    void rating_ticks_without_a_new_reply_rate_minus_one() {
        assertThat(StrategyRating.rate(0.3, 3, List.of(0.1, 0.2, 0.29))).hasValue(-1);
        assertThat(StrategyRating.rate(0.3, 3, List.of(0.1, 0.2, 0.0, 0.9)))
                .as("a new reply after the rating ticks is too late").hasValue(-1);
    }

    @Test
    void fewer_than_the_rating_ticks_and_nothing_new_yet_is_undecided() {
        assertThat(StrategyRating.rate(0.3, 3, List.of())).isEmpty();
        assertThat(StrategyRating.rate(0.3, 3, List.of(0.1, 0.2))).isEmpty();
    }

    @Test
    void bad_settings_are_refused() {
        assertThatThrownBy(() -> StrategyRating.rate(0.3, 0, List.of())).hasMessageContaining("ratingTicks");
        assertThatThrownBy(() -> StrategyRating.rate(-0.1, 3, List.of())).hasMessageContaining("noveltyThreshold");
    }
}
