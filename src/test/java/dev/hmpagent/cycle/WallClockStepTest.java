package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.cycle.FixedRatePacer.Overrun;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.RetryableLlmException;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.FakeTime;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A wall clock that steps (an NTP step, a VM restored from a snapshot, {@code date -s}) under a running loop: every
 * wait is measured on the monotonic clock, so a note is still answered within one frame and a retry still comes at
 * its back-off. The loop runs at 10 Hz on a fake clock: nothing here sleeps.
 */
@Timeout(30)
class WallClockStepTest {
    static final long FRAME = Duration.ofMillis(100).toNanos();

    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    final FakeTime time = new FakeTime(clock);
    final FakeLlmClient llm = new FakeLlmClient();
    final RecordingSink sink = new RecordingSink();
    /** When each call reached the LLM, in fake nanoseconds since the start. */
    final List<Long> asked = new ArrayList<>();

    /** The fake LLM, each call taking {@code take} on the fake clock. */
    LlmClient answeringAfter(Duration take) {
        return new LlmClient() {
            @Override
            public Completion complete(LlmRequest request, StreamListener listener, dev.hmpagent.llm.CallCancel cancel) {
                asked.add(time.nanoTime());
                time.advance(take);
                return llm.complete(request, listener);
            }

            @Override
            public String endpoint() { return llm.endpoint(); }

            @Override
            public String model() { return llm.model(); }
        };
    }

    TickLoop loop(Store store, LlmClient client) {
        return new TickLoop(TestWiring.cycle(AgentConfig.defaults(), store, client, sink, clock),
                new FixedRatePacer(10, Overrun.SKIP, 10), time, Duration.ZERO, () -> true, sink);
    }

    static long s(double seconds) {
        return Math.round(seconds * 1e9);
    }

    @Test
    void a_note_sent_after_the_wall_clock_stepped_back_an_hour_or_forward_is_answered_within_one_frame() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            NotesDao notes = new NotesDao(store);
            notes.add("a", "cli", 0, null);
            llm.reply("Noted the first thing.").reply("The weather report is filed under reports/.")
                    .reply("Three builds passed overnight; nothing else changed.");
            TickLoop loop = loop(store, answeringAfter(Duration.ofMillis(50)));
            time.at(Duration.ofSeconds(1), () -> clock.stepWall(Duration.ofHours(-1)));
            time.at(Duration.ofMillis(2_010), () -> notes.add("b", "cli", 0, null));
            time.at(Duration.ofSeconds(3), () -> clock.stepWall(Duration.ofHours(2)));
            time.at(Duration.ofMillis(4_010), () -> notes.add("c", "cli", 0, null));
            time.at(Duration.ofSeconds(6), () -> loop.stop(false));

            loop.run();

            assertThat(asked).as("a at once; b and c each within one frame of their arrival").hasSize(3);
            assertThat(asked.get(1) - s(2.01)).isBetween(0L, FRAME);
            assertThat(asked.get(2) - s(4.01)).isBetween(0L, FRAME);
            assertThat(llm.userPrompt(1)).contains("b");
            assertThat(llm.userPrompt(2)).contains("c");
        }
    }

    @Test
    void a_retry_during_an_outage_comes_at_its_back_off_when_the_wall_clock_steps_back_an_hour() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            new NotesDao(store).add("hello", "cli", 0, null);
            RetryableLlmException unavailable = new RetryableLlmException("http_503",
                    "LLM endpoint http://fake/v1 answered 503", null, null);
            llm.fail(unavailable).fail(unavailable).reply("hello back");
            TickLoop loop = loop(store, answeringAfter(Duration.ofMillis(300)));
            time.at(Duration.ofMillis(500), () -> clock.stepWall(Duration.ofHours(-1)));
            time.at(Duration.ofSeconds(10), () -> loop.stop(false));

            loop.run();

            assertThat(asked).as("503 at 0.3 s, back-off 1 s; 503 at 1.6 s, back-off 2 s; then the answer")
                    .containsExactly(0L, s(1.3), s(3.6));
        }
    }
}
