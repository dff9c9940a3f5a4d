package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hmpagent.cycle.FixedRatePacer.Overrun;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class FixedRatePacerTest {
    static final long MS = 1_000_000;

    @Test
    void frame_n_is_due_at_start_plus_n_periods_with_no_drift_over_ten_thousand_frames_of_work() {
        FixedRatePacer pacer = new FixedRatePacer(3, Overrun.SKIP, 10);
        long period = pacer.period().toNanos();
        long start = Long.MAX_VALUE - 1_000 * period;   // nanoTime may wrap around: only differences count
        pacer.start(start);
        long now = start;
        for (long n = 1; n <= 10_000; n++) {
            now += period * 3 / 10;   // each tick takes 0.3 periods
            Pace pace = pacer.next(now, n % 2 == 0);
            assertThat(pace.waiting()).isEqualTo(Pace.Wait.UNTIL_DUE);
            assertThat(pace.due()).as("frame " + n).isEqualTo(start + n * period);
            assertThat(pace.late()).isZero();
            now = pace.due() + 200_000;   // woken 0.2 ms late, as parkNanos is here
        }
    }

    @Test
    void the_period_is_one_over_hz_rounded_to_the_nanosecond() {
        assertThat(new FixedRatePacer(3, Overrun.SKIP, 0).period()).isEqualTo(Duration.ofNanos(333_333_333));
        assertThat(new FixedRatePacer(0.1, Overrun.SKIP, 0).period()).isEqualTo(Duration.ofSeconds(10));
        assertThat(new FixedRatePacer(50, Overrun.SKIP, 0).period()).isEqualTo(Duration.ofMillis(20));
    }

    @Test
    void a_tick_that_takes_exactly_its_period_is_on_time() {
        FixedRatePacer pacer = new FixedRatePacer(2, Overrun.SKIP, 10);
        pacer.start(0);
        Pace pace = pacer.next(500 * MS, true);
        assertThat(pace.late()).isZero();
        assertThat(pace.due()).isEqualTo(500 * MS);
    }

    @Test
    void skip_mode_drops_every_frame_whose_time_passed_and_waits_for_the_next_one_due() {
        FixedRatePacer pacer = new FixedRatePacer(2, Overrun.SKIP, 10);
        pacer.start(0);

        Pace pace = pacer.next(3_400 * MS, true);   // frame 0 took 3.4 s: frames 1-6 (0.5 s … 3.0 s) passed

        assertThat(pace).isEqualTo(new Pace(Pace.Wait.UNTIL_DUE, 3_500 * MS, false, 6, 6));
        assertThat(pacer.next(3_600 * MS, false)).isEqualTo(new Pace(Pace.Wait.UNTIL_DUE, 4_000 * MS, false, 0, 0));
    }

    @Test
    void catch_up_runs_the_missed_frames_back_to_back_then_returns_to_the_grid() {
        FixedRatePacer pacer = new FixedRatePacer(2, Overrun.CATCH_UP, 10);
        pacer.start(0);

        Pace first = pacer.next(3_400 * MS, true);
        assertThat(first).isEqualTo(new Pace(Pace.Wait.NONE, 500 * MS, true, 6, 0));
        for (int frame = 2; frame <= 6; frame++) {
            assertThat(pacer.next(3_400 * MS, false)).isEqualTo(new Pace(Pace.Wait.NONE, frame * 500 * MS, true, 0, 0));
        }
        assertThat(pacer.next(3_400 * MS, false)).isEqualTo(new Pace(Pace.Wait.UNTIL_DUE, 3_500 * MS, false, 0, 0));
    }

    @Test
    void catch_up_runs_at_most_max_catch_up_frames_and_skips_the_older_rest() {
        FixedRatePacer pacer = new FixedRatePacer(2, Overrun.CATCH_UP, 4);
        pacer.start(0);

        assertThat(pacer.next(3_400 * MS, true)).isEqualTo(new Pace(Pace.Wait.NONE, 1_500 * MS, true, 6, 2));
        assertThat(pacer.next(3_400 * MS, false).due()).isEqualTo(2_000 * MS);
        assertThat(pacer.next(3_400 * MS, false).due()).isEqualTo(2_500 * MS);
        assertThat(pacer.next(3_400 * MS, false).due()).isEqualTo(3_000 * MS);
        assertThat(pacer.next(3_400 * MS, false)).isEqualTo(new Pace(Pace.Wait.UNTIL_DUE, 3_500 * MS, false, 0, 0));
    }

    @Test
    void catch_up_with_a_cap_of_zero_is_skip() {
        FixedRatePacer pacer = new FixedRatePacer(2, Overrun.CATCH_UP, 0);
        pacer.start(0);
        assertThat(pacer.next(3_400 * MS, true)).isEqualTo(new Pace(Pace.Wait.UNTIL_DUE, 3_500 * MS, false, 6, 6));
    }

    @Test
    void a_slow_catch_up_frame_is_an_overrun_of_its_own() {
        FixedRatePacer pacer = new FixedRatePacer(2, Overrun.CATCH_UP, 10);
        pacer.start(0);
        assertThat(pacer.next(1_200 * MS, true).caughtUp()).isEqualTo(2);            // frames 1 and 2
        assertThat(pacer.next(1_200 * MS, false).due()).isEqualTo(1_000 * MS);      // frame 2, owed
        Pace again = pacer.next(2_700 * MS, true);                                   // frame 2 took 1.5 s
        assertThat(again).isEqualTo(new Pace(Pace.Wait.NONE, 1_500 * MS, true, 3, 0));   // frames 3-5
    }

    @Test
    void hz_outside_one_tenth_to_fifty_is_refused() {
        assertThatThrownBy(() -> new FixedRatePacer(0.05, Overrun.SKIP, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FixedRatePacer(51, Overrun.SKIP, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FixedRatePacer(Double.NaN, Overrun.SKIP, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new FixedRatePacer(1, Overrun.SKIP, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
