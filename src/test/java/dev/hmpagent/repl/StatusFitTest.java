package dev.hmpagent.repl;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The status line on one row: parts shortened, then the least needed dropped, the state and the phase kept. */
class StatusFitTest {
    static final String FULL = "ACTIVE · backing off · tick 4 · task 1.2k / 1M tokens · 1 message pending"
            + " · 2 processes running · qwen2.5-coder:7b";

    @Test
    void a_wide_screen_gets_every_part_as_it_is() {
        assertThat(StatusFit.fit(FULL, 199)).isEqualTo(FULL);
    }

    @Test
    void a_narrower_one_gets_short_words_then_fewer_parts() {
        assertThat(StatusFit.fit(FULL, 90))
                .isEqualTo("ACTIVE · backing off · #4 · task 1.2k/1M · 1 msg · 2 proc · qwen2.5-coder:7b");
        assertThat(StatusFit.fit(FULL, 59)).isEqualTo("ACTIVE · backing off · task 1.2k/1M · 1 msg · 2 proc");
        assertThat(StatusFit.fit(FULL, 40)).isEqualTo("ACTIVE · backing off · 1 msg · 2 proc");
        assertThat(StatusFit.fit("SAFETY_LOCKOUT until 14:05 · waiting for event · tick 9 · task 0 / 1M tokens · m", 59))
                .isEqualTo("SAFETY_LOCKOUT until 14:05 · waiting for event · task 0/1M");
    }
}
