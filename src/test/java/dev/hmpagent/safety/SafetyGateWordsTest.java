package dev.hmpagent.safety;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.safety.SafetyState;
import dev.hmpagent.safety.SafetyStatus;
import dev.hmpagent.safety.StopReason;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A stop is told with the person's local time, short, not the file's nanosecond UTC instant. */
class SafetyGateWordsTest {
    private final Clock berlin = Clock.fixed(Instant.parse("2026-11-29T03:20:00Z"), ZoneId.of("Europe/Berlin"));

    @Test
    void a_halt_today_says_the_local_time_of_day() {
        SafetyStatus halted = new SafetyStatus(SafetyState.STOPPED, Optional.of(StopReason.HALT), "lunch",
                Instant.parse("2026-11-29T03:15:28.257895446Z"), Optional.empty());

        assertThat(SafetyGate.describe(halted, berlin)).isEqualTo("STOPPED(halt) since 04:15:28 (lunch): the agent does"
                + " not think until a person runs `agent unlock` (or /unlock)");
    }

    @Test
    void an_older_stop_and_a_rest_say_the_day_too() {
        SafetyStatus rest = new SafetyStatus(SafetyState.RESTING, Optional.empty(), "talking, not doing",
                Instant.parse("2026-11-27T10:00:00Z"), Optional.of(Instant.parse("2026-11-30T10:00:00Z")));

        assertThat(SafetyGate.describe(rest, berlin)).startsWith("RESTING since Nov 27 11:00 (talking, not doing):"
                + " the agent rests until Nov 30 11:00;");
    }
}
