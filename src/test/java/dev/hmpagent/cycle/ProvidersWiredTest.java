package dev.hmpagent.cycle;

import dev.hmpagent.runtime.LlmChain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.commands.Approver;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.ConfigLoader;
import dev.hmpagent.config.ConfigSources;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeAnthropicServer;
import dev.hmpagent.testing.FakeOllamaServer;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** llm.provider chooses the adapter the cycle thinks with, and each key goes only to its own host. */
class ProvidersWiredTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-24T10:00:00Z");
    final RecordingSink sink = new RecordingSink();
    final List<Wiring.Tools> tools = new ArrayList<>();
    Store store;

    @BeforeEach
    void open() {
        store = Store.open(dir.resolve("agent.db"), clock);
    }

    @AfterEach
    void close() {
        tools.forEach(t -> t.processes().stopAll("test over"));
        store.close();
    }

    private Cycle cycle(Map<String, String> env) {
        Map<String, String> all = new HashMap<>(env);
        all.put("AGENT_STAGNATION_METHOD", "local");
        AgentConfig config = ConfigLoader.load(ConfigSources.envOnly(all)).config();
        LlmClient thinking = LlmChain.failover(config.llm(), LlmChain::client, all::get, clock.monotonic()::nanoTime);
        Wiring.Tools t = Wiring.tools(config, Approver.NOBODY, List.of(), all, clock, () -> LlmChain.client(config.llm()));
        tools.add(t);
        return Wiring.cycle(config, store, thinking, sink, clock, TestWiring.time(clock), t);
    }

    private TickResult tickOnNote(Cycle cycle, String note) {
        new NotesDao(store).add(note, "user", 0, null);
        clock.advance(Duration.ofMinutes(1));
        return cycle.tick();
    }

    @Test
    void provider_anthropic_sends_the_messages_api_with_its_own_key_and_records_cached_tokens() throws Exception {
        try (FakeAnthropicServer server = new FakeAnthropicServer()) {
            server.events(FakeAnthropicServer.messageStart(40, 0, 1800), FakeAnthropicServer.textBlockStart(0),
                    FakeAnthropicServer.ping(), FakeAnthropicServer.textDelta(0, "Hello from Claude."),
                    FakeAnthropicServer.blockStop(0), FakeAnthropicServer.messageDelta("end_turn", 12),
                    FakeAnthropicServer.messageStop());
            Cycle cycle = cycle(Map.of("AGENT_LLM_PROVIDER", "anthropic", "ANTHROPIC_BASE_URL", server.baseUrl(),
                    "AGENT_LLM_MODEL", "claude-test-model", "ANTHROPIC_API_KEY", "sk-ant-test-000000000001",
                    "OPENAI_API_KEY", "sk-openai-test-00000000002"));

            assertThat(tickOnNote(cycle, "hello").outcome()).isEqualTo("thought");

            FakeAnthropicServer.Received r = server.take();
            assertThat(r.path()).isEqualTo("/v1/messages");
            assertThat(r.header("x-api-key")).isEqualTo("sk-ant-test-000000000001");
            assertThat(r.header("Authorization")).isNull();
            assertThat(r.header("anthropic-version")).isEqualTo("2023-06-01");
            assertThat(r.body().path("system").path(0).path("cache_control").path("type").asText()).isEqualTo("ephemeral");
            assertThat(r.request().getBody().utf8()).doesNotContain("sk-openai-test");
            assertThat(new SqlFile(dir.resolve("agent.db")).rows("SELECT prompt_tokens FROM agent_log"))
                    .containsExactly("1840");
        }
    }

    @Test
    void provider_ollama_sends_api_chat_with_the_configured_model_options() throws Exception {
        try (FakeOllamaServer server = new FakeOllamaServer()) {
            server.streamed("Hello from Ollama.", 120, 8);
            Cycle cycle = cycle(Map.of("AGENT_LLM_PROVIDER", "ollama", "AGENT_LLM_BASE_URL", server.baseUrl(),
                    "AGENT_LLM_OPTIONS", "{ num_ctx = 8192, seed = 7 }"));

            assertThat(tickOnNote(cycle, "hello").outcome()).isEqualTo("thought");

            FakeOllamaServer.Received r = server.take();
            assertThat(r.path()).isEqualTo("/api/chat");
            assertThat(r.body().path("options").path("num_ctx").asInt()).isEqualTo(8192);
            assertThat(r.body().path("options").path("seed").asInt()).isEqualTo(7);
            assertThat(r.body().path("options").path("num_predict").asInt()).isEqualTo(1024);
        }
    }

    @Test
    void an_anthropic_registry_entry_gets_only_its_own_key_when_the_openai_main_llm_fails_over() throws Exception {
        try (FakeOpenAiServer a = new FakeOpenAiServer(); FakeAnthropicServer b = new FakeAnthropicServer()) {
            a.insufficientQuota();
            b.streamed("The spare answers.", 50, 5);
            Cycle cycle = cycle(Map.of("AGENT_LLM_BASE_URL", a.baseUrl(), "OPENAI_API_KEY", "sk-openai-test-00000000002",
                    "HMP_SPARE_KEY", "sk-ant-spare-0000000003", "AGENT_LLM_REGISTRY",
                    "[{ id = \"claude\", provider = \"anthropic\", base_url = \"" + b.baseUrl() + "\","
                            + " model = \"claude-test-model\", api_key_env = \"HMP_SPARE_KEY\" }]"));

            assertThat(tickOnNote(cycle, "hello").outcome()).isEqualTo("thought");

            assertThat(a.take().request().getHeaders().get("Authorization")).isEqualTo("Bearer sk-openai-test-00000000002");
            FakeAnthropicServer.Received r = b.take();
            assertThat(r.header("x-api-key")).isEqualTo("sk-ant-spare-0000000003");
            assertThat(r.request().getHeaders().toString()).doesNotContain("sk-openai-test");
        }
    }

    // ---- the budget counts what each provider charges: cached prompt tokens at a tenth (issue 33) ----

    private long taskTokens() {
        return Long.parseLong(new SqlFile(dir.resolve("agent.db")).rows("SELECT task_tokens FROM safety_counters")
                .get(0));
    }

    @Test
    void openai_cached_tokens_count_a_tenth_toward_the_task_budget() throws Exception {
        try (FakeOpenAiServer server = new FakeOpenAiServer()) {
            server.streamed("Hello from the cache.", 2_000, 10, 1_800);
            Cycle cycle = cycle(Map.of("AGENT_LLM_BASE_URL", server.baseUrl()));

            assertThat(tickOnNote(cycle, "hello").outcome()).isEqualTo("thought");

            assertThat(taskTokens()).as("200 uncached + 1,800 cached at a tenth + 10").isEqualTo(200 + 180 + 10);
        }
    }

    @Test
    void llama_cpp_timings_cache_n_counts_a_tenth_when_its_usage_says_nothing_of_the_cache() throws Exception {
        try (FakeOpenAiServer server = new FakeOpenAiServer()) {
            // an older llama-server: the prompt reused from its KV cache only in timings, beside the usage
            server.script(request -> new mockwebserver3.MockResponse.Builder()
                    .setHeader("Content-Type", "text/event-stream")
                    .body("data: {\"model\":\"local\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello from"
                            + " llama.cpp.\"},\"finish_reason\":null}]}\n\n"
                            + "data: {\"model\":\"local\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":"
                            + "\"stop\"}],\"usage\":{\"prompt_tokens\":2000,\"completion_tokens\":10,\"total_tokens\":2010},"
                            + "\"timings\":{\"cache_n\":1800,\"prompt_n\":200,\"predicted_n\":10}}\n\n"
                            + "data: [DONE]\n\n").build());
            Cycle cycle = cycle(Map.of("AGENT_LLM_BASE_URL", server.baseUrl()));

            assertThat(tickOnNote(cycle, "hello").outcome()).isEqualTo("thought");

            assertThat(new SqlFile(dir.resolve("agent.db")).rows("SELECT cached_tokens FROM llm_calls"))
                    .containsExactly("1800");
            assertThat(taskTokens()).isEqualTo(200 + 180 + 10);
        }
    }

    @Test
    void anthropic_cache_reads_count_a_tenth_and_cache_writes_one_and_a_quarter() throws Exception {
        try (FakeAnthropicServer server = new FakeAnthropicServer()) {
            server.events(FakeAnthropicServer.messageStart(40, 400, 1800), FakeAnthropicServer.textBlockStart(0),
                    FakeAnthropicServer.textDelta(0, "Hello from Claude."), FakeAnthropicServer.blockStop(0),
                    FakeAnthropicServer.messageDelta("end_turn", 12), FakeAnthropicServer.messageStop());
            Cycle cycle = cycle(Map.of("AGENT_LLM_PROVIDER", "anthropic", "ANTHROPIC_BASE_URL", server.baseUrl(),
                    "AGENT_LLM_MODEL", "claude-test-model", "ANTHROPIC_API_KEY", "sk-ant-test-000000000001"));

            assertThat(tickOnNote(cycle, "hello").outcome()).isEqualTo("thought");

            assertThat(taskTokens()).as("40 plain + 400 written at 1.25 + 1,800 read at a tenth + 12")
                    .isEqualTo(40 + 500 + 180 + 12);
        }
    }

    @Test
    void ollama_prompt_eval_cached_count_counts_a_tenth() throws Exception {
        try (FakeOllamaServer server = new FakeOllamaServer()) {
            server.stream(FakeOllamaServer.chunk("Hello from Ollama."), FakeOllamaServer.doneCached(2_000, 1_800, 10));
            Cycle cycle = cycle(Map.of("AGENT_LLM_PROVIDER", "ollama", "AGENT_LLM_BASE_URL", server.baseUrl()));

            assertThat(tickOnNote(cycle, "hello").outcome()).isEqualTo("thought");

            assertThat(taskTokens()).isEqualTo(200 + 180 + 10);
        }
    }
}
