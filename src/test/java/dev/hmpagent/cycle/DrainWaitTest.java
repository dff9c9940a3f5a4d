package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.cycle.CycleStatus.Trouble;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What a draining loop does about the cycle's trouble, decided on the monotonic clock alone. */
class DrainWaitTest {
    static final long NOW = 7_000_000_000_000L;
    static final Duration GIVE_UP = Duration.ofMinutes(5);

    static long s(long seconds) {
        return NOW + Duration.ofSeconds(seconds).toNanos();
    }

    @Test
    void no_trouble_leaves_nothing_to_wait_for() {
        DrainWait w = DrainWait.of(Trouble.NONE, NOW, NOW, NOW, GIVE_UP);
        assertThat(w.waits()).isFalse();
        assertThat(w.end()).isNull();
    }

    @Test
    void a_refused_request_ends_the_drain_at_once() {
        DrainWait w = DrainWait.of(Trouble.LLM_REJECTED, NOW, NOW, NOW, GIVE_UP);
        assertThat(w.end()).isEqualTo(TickLoop.End.LLM_REJECTED);
        assertThat(w.waits()).isFalse();
    }

    @Test
    void a_back_off_within_the_give_up_time_is_waited_out_to_the_nanosecond() {
        DrainWait w = DrainWait.of(Trouble.LLM_UNAVAILABLE, NOW, s(30), s(-60), GIVE_UP);
        assertThat(w.end()).isNull();
        assertThat(w.nanos()).isEqualTo(Duration.ofSeconds(30).toNanos());
    }

    @Test
    void a_try_due_after_the_give_up_time_ends_the_loop_saying_what_failed() {
        long since = s(-GIVE_UP.toSeconds());
        assertThat(DrainWait.of(Trouble.STORE, NOW, s(1), since, GIVE_UP).end()).isEqualTo(TickLoop.End.DATABASE);
        assertThat(DrainWait.of(Trouble.ERROR, NOW, s(1), since, GIVE_UP).end()).isEqualTo(TickLoop.End.FAILED);
        assertThat(DrainWait.of(Trouble.LLM_UNAVAILABLE, NOW, s(1), since, GIVE_UP).end())
                .isEqualTo(TickLoop.End.LLM_GAVE_UP);
    }

    @Test
    void a_try_already_due_waits_one_nanosecond_not_zero() {
        DrainWait w = DrainWait.of(Trouble.STORE, NOW, s(-1), NOW, GIVE_UP);
        assertThat(w.nanos()).isEqualTo(1);
    }
}
