package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.stagnation.Replies;
import dev.hmpagent.store.StagnationDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Paraphrase loops are caught in hybrid as soon as with the judge alone (issue 23): short replies that restate one
 * idea, with no commands, score near new steps locally (up to 0.85 here); with the default band hybrid puts them to
 * the judge, so its first stagnant tick is llm mode's (it was 8 against 3 with a band up to 0.8).
 */
class ParaphraseLoopTest {
    @TempDir Path dir;

    @Test
    void hybrid_finds_a_paraphrase_loop_stagnant_at_the_same_tick_as_llm() {
        assertThat(firstStagnantTick("llm")).isEqualTo(3);
        assertThat(firstStagnantTick("hybrid")).isEqualTo(3);
        assertThat(firstStagnantTick("local")).as("local alone cannot tell these from new replies").isGreaterThan(4);
    }

    /** The loop through the real cycle with the default config in {@code method}, a judge that says "no": 1-based. */
    private int firstStagnantTick(String method) {
        MutableClock clock = MutableClock.at("2026-11-27T10:00:00Z");
        FakeLlmClient llm = new FakeLlmClient();
        llm.judge = r -> WorldProgressTest.NO_NEW_THOUGHTS;
        List<String> loop = Replies.PARAPHRASE_LOOP;
        loop.forEach(llm::reply);
        try (Store store = Store.open(dir.resolve(method + ".db"), clock)) {
            Cycle cycle = TestWiring.cycle(AntiStagnationTest.config("cycle.autonomous", "true", "stagnation.method",
                    method, "safety.token_budget", "10000000"), store, llm, new RecordingSink(), clock);
            for (int i = 0; i < loop.size(); i++) {
                clock.advance(Duration.ofSeconds(30));
                assertThat(cycle.tick().worked()).as("tick %d thought", i + 1).isTrue();
            }
            return new StagnationDao(store).latest(loop.size() + 10).stream().filter(StagnationDao.Metric::stagnant)
                    .mapToInt(m -> (int) m.tickId()).min().orElse(Integer.MAX_VALUE);
        }
    }
}
