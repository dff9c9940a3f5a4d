package dev.hmpagent.cycle;

import dev.hmpagent.runtime.LlmChain;
import dev.hmpagent.runtime.TestWiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.commands.Approver;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.ConfigLoader;
import dev.hmpagent.config.ConfigSources;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.SafetyState;
import dev.hmpagent.safety.StopReason;
import dev.hmpagent.store.AgentLogDao;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeOpenAiServer;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import dev.hmpagent.testing.SqlFile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HMP "Core Outage" on the real wire: failover to a registry entry and back, a total outage, an exhausted quota. */
class CoreOutageTest {
    private static final String BUSY = "{\"error\":{\"message\":\"The server is overloaded\",\"type\":\"server_error\"}}";

    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-24T10:00:00Z");
    final RecordingSink sink = new RecordingSink();
    final List<Wiring.Tools> tools = new ArrayList<>();
    Store store;
    NotesDao notes;

    @BeforeEach
    void open() {
        store = Store.open(dir.resolve("agent.db"), clock);
        notes = new NotesDao(store);
    }

    @AfterEach
    void close() {
        tools.forEach(t -> t.processes().stopAll("test over"));
        store.close();
    }

    private static AgentConfig config(String... keyValues) {
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            env.put("AGENT_" + keyValues[i].toUpperCase(java.util.Locale.ROOT).replace('.', '_'), keyValues[i + 1]);
        }
        return ConfigLoader.load(ConfigSources.envOnly(env)).config();
    }

    private Cycle cycle(AgentConfig config, Map<String, String> env) {
        LlmClient thinking = LlmChain.failover(config.llm(), LlmChain::client, env::get, clock.monotonic()::nanoTime);
        Wiring.Tools t = Wiring.tools(config, Approver.NOBODY, List.of(), env, clock, () -> LlmChain.client(config.llm()));
        tools.add(t);
        TestWiring.startWrites(store, config, sink);   // what a start writes (llm_registry, a quota stop's release)
        return Wiring.cycle(config, store, thinking, sink, clock, TestWiring.time(clock), t);
    }

    /** Ticks until one works (a call was made), moving the clock past each retry. */
    private TickResult tick(Cycle cycle) {
        clock.advance(Duration.ofMinutes(2));
        return cycle.tick();
    }

    private List<String> infos() {
        return sink.of(AgentEvent.Info.class).stream().map(AgentEvent.Info::text).toList();
    }

    @Test
    void after_three_failures_the_registry_entry_thinks_and_the_main_llm_is_used_again_when_it_answers()
            throws Exception {
        try (FakeOpenAiServer a = new FakeOpenAiServer(); FakeOpenAiServer b = new FakeOpenAiServer()) {
            a.status(503, BUSY).status(503, BUSY).status(503, BUSY);
            b.streamed("The backup answers.", 100, 10).streamed("The backup answers again.", 100, 10);
            AgentConfig config = config("llm.base_url", a.baseUrl(), "llm.model", "model-a", "llm.api_key", "key-a",
                    "stagnation.method", "local", "llm.registry",
                    "[{ id = \"spare\", base_url = \"" + b.baseUrl() + "\", model = \"model-b\","
                            + " api_key_env = \"HMP_TEST_KEY_B\" }]");
            Cycle cycle = cycle(config, Map.of("HMP_TEST_KEY_B", "key-b"));
            notes.add("is the backup running?", "user", 0, null);

            assertThat(tick(cycle).outcome()).isEqualTo("llm_error");
            assertThat(tick(cycle).outcome()).isEqualTo("llm_error");
            TickResult third = tick(cycle);

            assertThat(third.outcome()).isEqualTo("thought");
            assertThat(a.requestCount()).isEqualTo(3);
            assertThat(b.requestCount()).isEqualTo(1);
            FakeOpenAiServer.Received atB = b.take();
            assertThat(atB.body().path("model").asText()).isEqualTo("model-b");
            assertThat(atB.request().getHeaders().get("Authorization")).as("host B never gets host A's key")
                    .isEqualTo("Bearer key-b");
            assertThat(atB.user()).as("the request that failed over names the backup in context 5, not model A")
                    .contains("; model model-b at " + b.baseUrl()).doesNotContain("model-a").contains("is the backup running?");
            notes.add("quick follow-up", "user", 0, null);
            clock.advance(Duration.ofSeconds(5));
            assertThat(cycle.tick().outcome()).isEqualTo("thought");
            assertThat(b.take().user()).as("context 5 names the LLM thinking now").contains("model-b at " + b.baseUrl());
            assertThat(b.requestCount()).isEqualTo(2);
            assertThat(infos()).filteredOn(t -> t.contains("thinking with model-b")).hasSize(1);
            assertThat(new AgentLogDao(store).llmNotice(third.tickId())).get().asString()
                    .contains("model-a at " + a.baseUrl() + " (main) failed 3 times in a row: thinking with model-b");

            // 15 s on, the main LLM is probed with one token and, answering, thinks again
            a.streamed("ok", 5, 1).streamed("The main LLM is back.", 100, 10);
            notes.add("and now?", "user", 0, null);
            assertThat(tick(cycle).outcome()).isEqualTo("thought");

            assertThat(b.requestCount()).as("no more calls to the backup").isEqualTo(2);
            for (int i = 0; i < 3; i++) {
                assertThat(a.take().request().getHeaders().get("Authorization")).isEqualTo("Bearer key-a");
            }
            FakeOpenAiServer.Received probe = a.take();
            assertThat(probe.body().path("max_tokens").asInt()).as("a probe, not a full prompt").isEqualTo(1);
            assertThat(probe.body().path("messages")).hasSize(1);
            FakeOpenAiServer.Received full = a.take();
            assertThat(full.request().getHeaders().get("Authorization")).isEqualTo("Bearer key-a");
            assertThat(full.user()).contains("and now?");
            assertThat(infos()).anyMatch(t -> t.startsWith("model-a at " + a.baseUrl() + " (main) answers again"));
        }
    }

    @Test
    void a_total_outage_is_told_once_probes_only_and_then_reads_the_queued_messages_in_order_once() throws Exception {
        try (FakeOpenAiServer a = new FakeOpenAiServer()) {
            for (int i = 0; i < 6; i++) a.status(503, BUSY);
            AgentConfig config = config("llm.base_url", a.baseUrl(), "stagnation.method", "local");
            Cycle cycle = cycle(config, Map.of());
            notes.add("first question", "user", 0, null);
            for (int i = 0; i < 3; i++) assertThat(tick(cycle).outcome()).isEqualTo("llm_error");
            notes.add("second question", "user", 0, null);
            assertThat(tick(cycle).outcome()).isEqualTo("llm_error");
            notes.add("third question", "user", 0, null);
            assertThat(tick(cycle).outcome()).isEqualTo("llm_error");
            assertThat(tick(cycle).outcome()).isEqualTo("llm_error");

            assertThat(infos()).filteredOn(t -> t.startsWith("No LLM answers")).as("told once").hasSize(1);
            assertThat(new SqlFile(dir.resolve("agent.db")).rows("SELECT count(*) FROM agent_log WHERE state = 'llm_error'"))
                    .as("ticks keep being logged").containsExactly("6");
            List<FakeOpenAiServer.Received> during = new ArrayList<>();
            for (int i = 0; i < 6; i++) during.add(a.take());
            assertThat(during.subList(3, 6)).allMatch(r -> r.body().path("max_tokens").asInt() == 1,
                    "while no LLM answers, only one-token probes are sent");

            a.streamed("ok", 5, 1).streamed("Answering all three.", 300, 10);
            assertThat(tick(cycle).outcome()).isEqualTo("thought");
            a.take();   // the probe
            String user = a.take().user();
            assertThat(user.indexOf("first question")).isPositive().isLessThan(user.indexOf("second question"));
            assertThat(user.indexOf("second question")).isLessThan(user.indexOf("third question"));
            assertThat(infos()).filteredOn(t -> t.contains("answers again")).hasSize(1);

            a.streamed("Next.", 300, 10);
            notes.add("fourth question", "user", 0, null);
            assertThat(tick(cycle).outcome()).isEqualTo("thought");
            String next = a.take().user();
            assertThat(next).contains("fourth question");
            assertThat(new SqlFile(dir.resolve("agent.db")).rows("SELECT count(*) FROM notes WHERE source = 'user'"
                    + " AND read = 0")).as("every queued message was read once").containsExactly("0");
        }
    }

    @Test
    void an_exhausted_quota_stops_the_agent_until_it_starts_with_another_llm() throws Exception {
        try (FakeOpenAiServer a = new FakeOpenAiServer()) {
            a.insufficientQuota();
            AgentConfig config = config("llm.base_url", a.baseUrl(), "llm.model", "model-a", "stagnation.method", "local");
            Cycle cycle = cycle(config, Map.of());
            notes.add("hello", "user", 0, null);
            tick(cycle);

            SafetyControl control = new SafetyControl(store);
            assertThat(control.current().state()).isEqualTo(SafetyState.STOPPED);
            assertThat(control.current().reason()).isEqualTo(Optional.of(StopReason.QUOTA));
            assertThat(sink.of(AgentEvent.Problem.class)).anyMatch(p -> p.text().contains("the agent is stopped (quota)"));

            cycle(config, Map.of());   // the same configuration: still stopped, and it says what releases it
            assertThat(control.current().reason()).isEqualTo(Optional.of(StopReason.QUOTA));
            assertThat(sink.of(AgentEvent.Problem.class)).anyMatch(p -> p.text().startsWith("the agent is stopped (quota)"
                    + " since"));

            cycle(config("llm.base_url", a.baseUrl(), "llm.model", "model-b", "stagnation.method", "local"), Map.of());
            assertThat(control.current().active()).isTrue();
            assertThat(new SqlFile(dir.resolve("agent.db")).rows("SELECT event FROM safety_audit ORDER BY id"))
                    .containsSubsequence("quota", "config_change");
        }
    }

    @Test
    void with_an_entry_that_has_credit_an_exhausted_quota_is_a_failover_not_a_stop() throws Exception {
        try (FakeOpenAiServer a = new FakeOpenAiServer(); FakeOpenAiServer b = new FakeOpenAiServer()) {
            a.insufficientQuota();
            b.streamed("Here is my answer.", 100, 10);
            AgentConfig config = config("llm.base_url", a.baseUrl(), "stagnation.method", "local", "llm.registry",
                    "[{ id = \"spare\", base_url = \"" + b.baseUrl() + "\", model = \"model-b\" }]");
            Cycle cycle = cycle(config, Map.of());
            notes.add("hello", "user", 0, null);

            assertThat(tick(cycle).outcome()).isEqualTo("thought");
            assertThat(new SafetyControl(store).current().active()).isTrue();
            assertThat(b.take().request().getHeaders().get("Authorization")).as("an entry naming no key sends none")
                    .isNull();
        }
    }
}
