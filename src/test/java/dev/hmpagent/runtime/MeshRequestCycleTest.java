package dev.hmpagent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.a2a.client.FakePeer;
import dev.hmpagent.commands.Approver;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.ConfigLoader;
import dev.hmpagent.config.ConfigSources;
import dev.hmpagent.cycle.Cycle;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import dev.hmpagent.testing.SqlFile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mesh request through the real cycle: a reply that repeats the last one fires it, the cycle runs its
 * peer_message after the reflex (off the tick), the peer [a2a] allows gets the question, and its answer is the row's
 * result, shown to the LLM like any result.
 */
class MeshRequestCycleTest {
    static final String A = "The backup failed at 02:14 because the firewall reload resets long uploads; the fix is an"
            + " ESTABLISHED rule, and I will write the ticket for the network team today.";

    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();

    @Test
    void a_repeat_asks_the_allowed_peer_after_the_reflex_and_its_answer_is_the_rows_result() throws Exception {
        AgentConfig config = ConfigLoader.load(ConfigSources.envOnly(Map.of("AGENT_CYCLE_AUTONOMOUS", "true",
                "AGENT_A2A_ALLOW", "alpha", "AGENT_STAGNATION_NO_STIMULUS_TICKS", "1", "AGENT_DB", dir.resolve("agent.db").toString()))).config();
        try (Store store = Store.open(dir.resolve("agent.db"), clock);
             FakePeer alpha = new FakePeer(); FakePeer stranger = new FakePeer()) {
            store.tables().peers().add("p-1", Map.of("name", "alpha", "url", alpha.url(), "card", alpha.cardJson()));
            store.tables().peers().add("p-2", Map.of("name", "stranger", "url", stranger.url(),
                    "card", stranger.cardJson()));
            SqlFile file = new SqlFile(dir.resolve("agent.db"));
            file.exec("UPDATE stagnation_strategies SET active = CASE name WHEN 'Mesh request' THEN 1 ELSE 0 END");
            Wiring.Tools tools = TestWiring.tools(config, Approver.NOBODY, clock);
            CountDownLatch arrived = new CountDownLatch(1);
            tools.completions().onArrival(arrived::countDown);
            Cycle cycle = Wiring.cycle(config, store, llm, new RecordingSink(), clock, TestWiring.time(clock), tools);
            llm.reply(A).reply(A);
            store.tables().notes().add("why does the backup fail?", "user", 0, null);
            cycle.tick();
            clock.advance(Duration.ofSeconds(30));
            cycle.tick();   // word for word: stagnant at once, and the mesh request is the one way out left

            assertThat(arrived.await(10, TimeUnit.SECONDS)).as("the send ran after the reflex").isTrue();
            cycle.recordResults();
            assertThat(file.rows("SELECT tick_id || ' ' || status || ' ' || result FROM process_log"
                    + " WHERE name = 'peer_message'")).singleElement().asString()
                    .isEqualTo("2 ok alpha (p-1) answered:\necho: I seem to be going in circles. What would you"
                            + " explore now? One or two concrete ideas are enough.");
            assertThat(alpha.posts().get(0).body().toString()).as("a person's words stay with the agent")
                    .doesNotContain("why does the backup fail");
            assertThat(stranger.posts()).isEmpty();
            assertThat(file.rows("SELECT strategy FROM reflex_firings")).isEqualTo(List.of("Mesh request"));
        }
    }
}
