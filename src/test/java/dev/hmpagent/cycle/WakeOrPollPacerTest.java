package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class WakeOrPollPacerTest {
    final WakeOrPollPacer pacer = new WakeOrPollPacer(Duration.ofMillis(500));

    @Test
    void after_a_tick_that_worked_the_next_runs_at_once() {
        pacer.start(7);
        assertThat(pacer.next(1_000, true)).isEqualTo(Pace.atOnce());
    }

    @Test
    void after_an_idle_iteration_it_waits_for_a_wake_or_the_poll_interval() {
        pacer.start(7);
        assertThat(pacer.next(1_000, false))
                .isEqualTo(new Pace(Pace.Wait.UNTIL_DUE_OR_WOKEN, 1_000 + 500_000_000L, false, 0, 0));
    }

    @Test
    void it_has_no_rate() {
        assertThat(pacer.hz()).isZero();
    }
}
