package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.cycle.FixedRatePacer.Overrun;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.FakeTime;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Frame overruns of an idle loop on a busy machine (the park wakes late): one frame behind is counted but not said
 * ("an idle frame took 1 ms: skipped 1 frame" was noise); more is said as what it is, at most one line per 10 s.
 */
@Timeout(30)
class OverrunLinesTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    final FakeTime time = new FakeTime(clock);
    final RecordingSink sink = new RecordingSink();

    TickLoop loop(Store store) {
        return new TickLoop(TestWiring.cycle(AgentConfig.defaults(), store, new FakeLlmClient(), sink, clock),
                new FixedRatePacer(10, Overrun.SKIP, 10), time, Duration.ZERO, () -> true, sink);
    }

    /** At {@code at}, the tick thread is held off the CPU for {@code away}: its park wakes that much late. */
    void descheduled(Duration at, Duration away) {
        time.at(at, () -> time.advance(away));
    }

    @Test
    void a_loop_one_frame_behind_counts_the_frame_and_says_nothing() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            TickLoop loop = loop(store);
            // due at 1.1 s, woken at 1.3 s: frame 12 (1.2 s) is lost; the same at 3.3 s
            descheduled(Duration.ofMillis(1_050), Duration.ofMillis(250));
            descheduled(Duration.ofMillis(3_050), Duration.ofMillis(250));
            time.at(Duration.ofSeconds(5), () -> loop.stop(false));

            loop.run();

            assertThat(loop.stats().framesSkipped()).isEqualTo(2);
            assertThat(sink.of(AgentEvent.Info.class)).as("no line for a frame or two lost to a late wake").isEmpty();
        }
    }

    @Test
    void frames_really_lost_are_said_as_a_late_wake_at_most_once_per_10_s() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            TickLoop loop = loop(store);
            // due at 1.1 s, woken at 1.4 s: frames 12 and 13 are lost; later the same, then 4 lost at 12.6 s
            descheduled(Duration.ofMillis(1_050), Duration.ofMillis(350));
            descheduled(Duration.ofMillis(3_050), Duration.ofMillis(350));
            descheduled(Duration.ofMillis(5_050), Duration.ofMillis(350));
            descheduled(Duration.ofMillis(12_050), Duration.ofMillis(550));
            time.at(Duration.ofSeconds(14), () -> loop.stop(false));

            loop.run();

            assertThat(loop.stats().framesSkipped()).isEqualTo(2 + 2 + 2 + 4);
            assertThat(sink.of(AgentEvent.Info.class)).extracting(AgentEvent.Info::text).containsExactly(
                    "the loop woke late (the machine is busy): skipped 2 frames at 10 Hz",
                    "the loop woke late (the machine is busy): skipped 4 frames at 10 Hz"
                            + " (2 more since the last such line)");
        }
    }
}
