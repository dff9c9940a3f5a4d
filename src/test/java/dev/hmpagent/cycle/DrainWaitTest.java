package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a draining loop does about the cycle's trouble, decided from the status alone. */
class DrainWaitTest {
    static final Instant NOW = Instant.parse("2026-11-27T10:00:00Z");
    static final Duration GIVE_UP = Duration.ofMinutes(5);

    static CycleStatus troubled(CycleStatus.Trouble t, Instant since, Instant retryAt) {
        return new CycleStatus(CycleStatus.Phase.BACKING_OFF, 3, 0, Optional.of(retryAt), "boom", t, Optional.of(since));
    }

    @Test
    void no_trouble_leaves_nothing_to_wait_for() {
        DrainWait w = DrainWait.of(CycleStatus.initial(0, 0), NOW, GIVE_UP);
        assertThat(w.waits()).isFalse();
        assertThat(w.end()).isNull();
    }

    @Test
    void a_refused_request_ends_the_drain_at_once() {
        DrainWait w = DrainWait.of(troubled(CycleStatus.Trouble.LLM_REJECTED, NOW, NOW), NOW, GIVE_UP);
        assertThat(w.end()).isEqualTo(TickLoop.End.LLM_REJECTED);
        assertThat(w.waits()).isFalse();
    }

    @Test
    void a_back_off_within_the_give_up_time_is_waited_out_to_the_nanosecond() {
        DrainWait w = DrainWait.of(troubled(CycleStatus.Trouble.LLM_UNAVAILABLE, NOW.minusSeconds(60),
                NOW.plusSeconds(30)), NOW, GIVE_UP);
        assertThat(w.end()).isNull();
        assertThat(w.nanos()).isEqualTo(Duration.ofSeconds(30).toNanos());
    }

    @Test
    void a_try_due_after_the_give_up_time_ends_the_loop_saying_what_failed() {
        Instant since = NOW.minus(GIVE_UP);
        assertThat(DrainWait.of(troubled(CycleStatus.Trouble.STORE, since, NOW.plusSeconds(1)), NOW, GIVE_UP).end())
                .isEqualTo(TickLoop.End.DATABASE);
        assertThat(DrainWait.of(troubled(CycleStatus.Trouble.ERROR, since, NOW.plusSeconds(1)), NOW, GIVE_UP).end())
                .isEqualTo(TickLoop.End.FAILED);
        assertThat(DrainWait.of(troubled(CycleStatus.Trouble.LLM_UNAVAILABLE, since, NOW.plusSeconds(1)), NOW, GIVE_UP)
                .end()).isEqualTo(TickLoop.End.LLM_GAVE_UP);
    }

    @Test
    void a_try_already_due_waits_one_nanosecond_not_zero() {
        DrainWait w = DrainWait.of(troubled(CycleStatus.Trouble.STORE, NOW, NOW.minusSeconds(1)), NOW, GIVE_UP);
        assertThat(w.nanos()).isEqualTo(1);
    }
}
