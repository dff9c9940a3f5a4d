package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.commands.Approver;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.cycle.FixedRatePacer.Overrun;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.RetryableLlmException;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.runtime.Wiring;
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

/** The back-off line says the delay the retry then keeps, jitter and all, not a whole second rounded up. */
@Timeout(30)
class BackoffLineTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    final FakeTime time = new FakeTime(clock);
    final FakeLlmClient llm = new FakeLlmClient();
    final RecordingSink sink = new RecordingSink();
    final List<Long> asked = new ArrayList<>();

    @Test
    void a_jittered_back_off_of_1_25_s_is_said_as_1_3_s_and_kept() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            new NotesDao(store).add("hello", "cli", 0, null);
            RetryableLlmException unavailable = new RetryableLlmException("http_503",
                    "LLM endpoint http://fake/v1 answered 503", null, null);
            llm.fail(unavailable).fail(unavailable).reply("hello back");
            AgentConfig config = AgentConfig.defaults();
            // equal jitter of 0.75: the second step, 2 s, becomes 2 × (1 − 0.375) = 1.25 s
            Wiring.Tools tools = Wiring.withJitter(TestWiring.tools(config, Approver.NOBODY, clock), () -> 0.75);
            LlmClient timed = new LlmClient() {
                @Override
                public Completion complete(LlmRequest request, StreamListener listener, dev.hmpagent.llm.CallCancel cancel) {
                    asked.add(time.nanoTime());
                    return llm.complete(request, listener);
                }

                @Override
                public String endpoint() { return llm.endpoint(); }

                @Override
                public String model() { return llm.model(); }
            };
            TickLoop loop = new TickLoop(Wiring.cycle(config, store, timed, sink, clock, TestWiring.time(clock), tools),
                    new FixedRatePacer(40, Overrun.SKIP, 10), time, Duration.ZERO, () -> true, sink);
            time.at(Duration.ofSeconds(5), () -> loop.stop(false));

            loop.run();

            assertThat(sink.of(AgentEvent.Retrying.class)).extracting(AgentEvent.Retrying::text)
                    .satisfies(t -> assertThat(t.get(0)).contains("retrying in 1 s;"))
                    .satisfies(t -> assertThat(t.get(1)).contains("retrying in 1.3 s;"));
            assertThat(asked.get(2) - asked.get(1)).as("the retry 1.25 s after the second failure")
                    .isEqualTo(Duration.ofMillis(1_250).toNanos());
        }
    }
}
