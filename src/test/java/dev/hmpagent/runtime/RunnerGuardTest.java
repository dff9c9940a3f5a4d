package dev.hmpagent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.cycle.TickLoop;
import dev.hmpagent.cycle.TimeSource;
import dev.hmpagent.cycle.WakeOrPollPacer;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.store.FileIdentity;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.RunnerLock;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunnerGuardTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-21T10:00:00Z");
    final Set<Long> alive = new HashSet<>(Set.of(100L, 200L));
    final RecordingSink sink = new RecordingSink();

    @Test
    void an_agent_whose_file_was_taken_over_stops_before_its_next_tick_and_says_so_once() throws Exception {
        Path db = dir.resolve("agent.db");
        try (Store mine = Store.open(db, clock); Store tick = Store.open(db, clock); Store theirs = Store.open(db, clock)) {
            RunnerLock lock = new RunnerLock(mine, 100, "box", alive::contains, Duration.ofSeconds(30));
            lock.acquire();
            FakeLlmClient llm = new FakeLlmClient();
            try (RunnerGuard guard = new RunnerGuard(lock, lock.on(tick), sink, FileIdentity.of(db))) {
                TickLoop loop = new TickLoop(TestWiring.cycle(AgentConfig.defaults(), tick, llm, sink, clock),
                        new WakeOrPollPacer(Duration.ofHours(1)), TimeSource.system(), Duration.ZERO, guard::mayTick,
                        sink);
                guard.guard(loop);
                assertThat(guard.mayTick()).isTrue();

                clock.advance(Duration.ofSeconds(40));   // this process was suspended
                new RunnerLock(theirs, 200, "box", alive::contains, Duration.ofSeconds(30)).acquire();
                new NotesDao(theirs).add("for the new agent", "user", 0, null);

                loop.run();   // returns: the guard stopped it before any tick

                assertThat(guard.mayTick()).isFalse();
                assertThat(llm.requests).isEmpty();
                assertThat(sink.of(AgentEvent.Problem.class)).singleElement()
                        .satisfies(p -> assertThat(p.text()).contains("another agent has taken over agent.db"));
            }
        }
    }
}
