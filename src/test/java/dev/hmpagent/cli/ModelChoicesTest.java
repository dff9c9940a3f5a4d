package dev.hmpagent.cli;

import dev.hmpagent.runtime.LlmChain;

import dev.hmpagent.llm.SwitchableLlm;
import dev.hmpagent.llm.RegistrySwitch;
import dev.hmpagent.runtime.RegistryRoutes;
import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.runtime.Wiring;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.ConfigLoader;
import dev.hmpagent.config.ConfigSources;
import dev.hmpagent.cycle.Cycle;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.Message;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.llm.Usage;
import dev.hmpagent.repl.Inspect;
import dev.hmpagent.repl.ModelChoice;
import dev.hmpagent.repl.SlashCommands;
import dev.hmpagent.store.LlmRegistryDao;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeOpenAiServer;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * /model over the cycle's LLM, against two scripted servers on real sockets: the configured one (a, key-a) and a
 * registry entry (b, key-b). What each server received shows where each key went.
 */
@Timeout(60)
class ModelChoicesTest {
    static final LlmRequest HELLO = new LlmRequest(List.of(new Message(Message.Role.USER, "hello")), 0.2, 50);

    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-24T10:00:00Z");
    FakeOpenAiServer a;
    FakeOpenAiServer b;
    Store store;
    Store replStore;
    AgentConfig config;
    SwitchableLlm chosen;
    ModelChoices models;
    SlashCommands commands;

    @BeforeEach
    void start() throws Exception {
        a = new FakeOpenAiServer();
        b = new FakeOpenAiServer();
        store = Store.open(dir.resolve("agent.db"), clock);
        replStore = store.connectAgain();
        config = config("llm.base_url", a.baseUrl(), "llm.api_key", "key-a", "llm.model", "model-a",
                "stagnation.method", "local");
        LlmRegistryDao registry = new LlmRegistryDao(store);
        registry.register(LlmRegistryDao.MAIN_ID, "model-a", "the LLM agent.toml configures", "openai", a.baseUrl(),
                "model-a", 0, "OPENAI_API_KEY");
        registry.register("spare", "spare model", "", "openai", b.baseUrl(), "model-b", 1, "HMP_TEST_KEY_B");
        registry.register("claude", "claude", "", "gemini", "https://generativelanguage.googleapis.com", "claude-x", 2,
                "ANTHROPIC_API_KEY");
        registry.register("keyless", "", "", "", "http://user:secret@127.0.0.1:9/v1?token=abc", "model-c", 3,
                "HMP_TEST_UNSET");
        chosen = new SwitchableLlm(LlmChain.client(config.llm()));
        models = new ModelChoices(chosen, new LlmRegistryDao(replStore), config.llm(),
                Map.of("HMP_TEST_KEY_B", "key-b", "ANTHROPIC_API_KEY", "key-claude")::get);
        commands = new SlashCommands();
        new Inspect(replStore, ZoneOffset.UTC, 0, java.time.Instant.EPOCH, new Inspect.Budgets(100_000, 0), models, List::of, t -> "")
                .commands().forEach(commands::add);
    }

    @AfterEach
    void stop() {
        replStore.close();
        store.close();
        a.close();
        b.close();
    }

    static AgentConfig config(String... keyValues) {
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            env.put("AGENT_" + keyValues[i].toUpperCase(java.util.Locale.ROOT).replace('.', '_'), keyValues[i + 1]);
        }
        return ConfigLoader.load(ConfigSources.envOnly(env)).config();
    }

    @Test
    void the_choices_are_the_configured_llm_and_the_entries_the_client_can_reach_credentials_masked() {
        assertThat(models.choices()).containsExactly(
                new ModelChoice.Choice("main", "the LLM agent.toml configures", "model-a", a.baseUrl()),
                new ModelChoice.Choice("spare", "spare model", "model-b", b.baseUrl()),
                new ModelChoice.Choice("keyless", "", "model-c", "http://****@127.0.0.1:9/v1?token=****"));
        String shown = commands.run("/model");
        assertThat(shown).startsWith("in use: model-a at " + a.baseUrl().replaceAll("/$", "")
                        + " (main: the LLM agent.toml configures)\nconfigured (/model <id> switches):")
                .contains("spare    model-b  " + b.baseUrl())
                .doesNotContain("secret").doesNotContain("abc").doesNotContain("key-").doesNotContain("claude");
    }

    @Test
    void a_switch_sends_the_next_calls_to_that_entry_with_its_own_key_and_main_returns() throws Exception {
        a.streamed("from a", 10, 2).streamed("from a again", 10, 2);
        b.streamed("from b", 10, 2);
        chosen.complete(HELLO, StreamListener.NONE);

        assertThat(commands.run("/model spare")).isEqualTo("thinking with model-b at " + b.baseUrl().replaceAll("/$", "")
                + " (llm_registry spare) from the next call; /model main returns");
        assertThat(chosen.complete(HELLO, StreamListener.NONE).text()).isEqualTo("from b");
        assertThat(models.current()).contains("model-b at ").contains("(llm_registry spare, chosen with /model");
        assertThat(commands.run("/model model-a")).startsWith("back to the configured LLM, model-a at ");
        assertThat(chosen.complete(HELLO, StreamListener.NONE).text()).isEqualTo("from a again");

        FakeOpenAiServer.Received atB = b.take();
        assertThat(atB.request().getHeaders().get("Authorization")).isEqualTo("Bearer key-b");
        assertThat(atB.body().path("model").asText()).isEqualTo("model-b");
        for (int i = 0; i < 2; i++) {
            FakeOpenAiServer.Received atA = a.take();
            assertThat(atA.request().getHeaders().get("Authorization")).isEqualTo("Bearer key-a");
            assertThat(atA.body().path("model").asText()).isEqualTo("model-a");
        }
        assertThat(a.requestCount()).isEqualTo(2);
        assertThat(b.requestCount()).isEqualTo(1);
    }

    @Test
    void any_model_by_name_is_asked_of_the_configured_endpoint_with_its_key_and_its_list_completes() throws Exception {
        a.modelList = "{\"object\": \"list\", \"data\": [{\"id\": \"qwen2.5:7b\"}, {\"id\": \"model-a\"},"
                + " {\"id\": \"llama3.2:3b\"}]}";
        a.streamed("from qwen", 10, 2).streamed("from a again", 10, 2);
        String base = a.baseUrl().replaceAll("/$", "");

        assertThat(commands.run("/model qwen2.5:7b")).isEqualTo("thinking with qwen2.5:7b at " + base
                + " from the next call; /model main returns");
        assertThat(chosen.complete(HELLO, StreamListener.NONE).text()).isEqualTo("from qwen");
        assertThat(models.current()).isEqualTo("qwen2.5:7b at " + base + " (chosen by name with /model; /model main returns)");
        assertThat(commands.run("/model")).contains("the endpoint lists 3 models (/model <name> switches; Tab completes):"
                + "\n  llama3.2:3b\n  model-a\n  qwen2.5:7b");
        assertThat(commands.run("/model mistral-nemo")).isEqualTo("thinking with mistral-nemo at " + base
                + " from the next call; the endpoint does not list it (it lists 3: /model shows them); /model main returns");
        assertThat(commands.run("/model main")).startsWith("back to the configured LLM, model-a at ");
        assertThat(chosen.complete(HELLO, StreamListener.NONE).text()).isEqualTo("from a again");

        List<FakeOpenAiServer.Received> chats = new java.util.ArrayList<>();
        for (int i = 0; i < a.requestCount(); i++) {
            FakeOpenAiServer.Received r = a.take();
            assertThat(r.request().getHeaders().get("Authorization")).isEqualTo("Bearer key-a");
            if (r.request().getMethod().equals("POST")) chats.add(r);
        }
        assertThat(chats).extracting(r -> r.body().path("model").asText()).containsExactly("qwen2.5:7b", "model-a");
        assertThat(b.requestCount()).as("the key goes nowhere else").isZero();
    }

    @Test
    void an_endpoint_without_a_list_still_takes_a_name_and_says_why_it_lists_none() {
        assertThat(commands.run("/model")).contains("/model <name> asks the configured endpoint for any model by name"
                + " (its list of models: ").contains("HTTP 404");
        assertThat(commands.run("/model qwen2.5:7b")).startsWith("thinking with qwen2.5:7b at ");
        assertThat(commands.run("/model two words")).startsWith("/model: cannot use two words: \"two words\" cannot be");
    }

    @Test
    void an_llm_agent_toml_configures_is_chosen_within_the_failover_which_goes_on_from_it() throws Exception {
        AgentConfig withSpare = config("llm.base_url", a.baseUrl(), "llm.api_key", "key-a", "llm.model", "model-a",
                "llm.registry", "[{ id = \"spare\", base_url = \"" + b.baseUrl() + "\", model = \"model-b\","
                        + " api_key_env = \"HMP_TEST_KEY_B\" }]");
        java.util.function.Function<String, String> env = Map.of("HMP_TEST_KEY_B", "key-b")::get;
        SwitchableLlm llm = new SwitchableLlm(LlmChain.failover(withSpare.llm(), LlmChain::client, env, clock.monotonic()::nanoTime));
        ModelChoices choices = new ModelChoices(llm, new LlmRegistryDao(replStore), withSpare.llm(), env);
        b.streamed("from b", 10, 2).status(503, "{\"error\": {\"message\": \"busy\"}}")
                .status(503, "{\"error\": {\"message\": \"busy\"}}").status(503, "{\"error\": {\"message\": \"busy\"}}");
        a.streamed("from a", 10, 2);

        assertThat(choices.use("spare")).isEqualTo("thinking with spare from the next call; failover goes on from it when"
                + " it fails; /model main returns");
        assertThat(choices.current()).contains("(main: the LLM agent.toml configures; spare from the next call, as you chose)");
        assertThat(llm.switched()).as("not around the failover").isFalse();
        assertThat(llm.complete(HELLO, StreamListener.NONE).text()).isEqualTo("from b");
        assertThat(choices.current()).startsWith("model-b at ").contains("(llm_registry spare, chosen with /model");
        assertThat(llm.notices()).containsExactly("thinking with model-b at " + b.baseUrl().replaceAll("/$", "")
                + " (spare), as you chose (/model)");
        for (int i = 0; i < 2; i++) {
            assertThat(catchThrowableOfType(dev.hmpagent.llm.LlmException.class,
                    () -> llm.complete(HELLO, StreamListener.NONE))).isNotNull();
        }
        assertThat(llm.complete(HELLO, StreamListener.NONE).text()).as("the third failure fails over to main")
                .isEqualTo("from a");
        assertThat(llm.notices()).singleElement().asString().contains("(spare) failed 3 times in a row: thinking with model-a");
        assertThat(choices.current()).contains("(main: the LLM agent.toml configures)");
        assertThat(b.take().request().getHeaders().get("Authorization")).isEqualTo("Bearer key-b");
        assertThat(a.take().request().getHeaders().get("Authorization")).isEqualTo("Bearer key-a");

        assertThat(choices.use("main")).startsWith("already thinking with the configured LLM, model-a at ");
        assertThat(choices.current()).as("nothing pending to show").endsWith("(main: the LLM agent.toml configures)");
        assertThat(choices.use("spare")).startsWith("thinking with spare from the next call");
        assertThat(choices.use("main")).as("a later choice wins over one not yet taken up")
                .startsWith("already thinking with the configured LLM");
        a.streamed("from a again", 10, 2);
        assertThat(llm.complete(HELLO, StreamListener.NONE).text()).isEqualTo("from a again");
        assertThat(b.requestCount()).as("its answer and its three failures, nothing since").isEqualTo(4);
    }

    @Test
    void an_llm_out_for_good_is_not_chosen_and_the_person_is_told_why() throws Exception {
        AgentConfig withSpare = config("llm.base_url", a.baseUrl(), "llm.api_key", "key-a", "llm.model", "model-a",
                "llm.registry", "[{ id = \"spare\", base_url = \"" + b.baseUrl() + "\", model = \"model-b\" }]");
        java.util.function.Function<String, String> env = Map.<String, String>of()::get;
        SwitchableLlm llm = new SwitchableLlm(LlmChain.failover(withSpare.llm(), LlmChain::client, env, clock.monotonic()::nanoTime));
        ModelChoices choices = new ModelChoices(llm, new LlmRegistryDao(replStore), withSpare.llm(), env);
        a.status(429, "{\"error\": {\"message\": \"You exceeded your current quota\", \"type\": \"insufficient_quota\","
                + " \"code\": \"insufficient_quota\"}}");
        b.streamed("from b", 10, 2);
        assertThat(llm.complete(HELLO, StreamListener.NONE).text()).as("the quota hands over at once").isEqualTo("from b");

        assertThat(choices.use("main")).isEqualTo("main is out because its quota is exhausted: still thinking with"
                + " model-b at " + b.baseUrl().replaceAll("/$", ""));
        assertThat(choices.current()).contains("(llm_registry spare, which the failover moved to");
    }

    @Test
    void an_entry_whose_key_variable_is_unset_gets_no_key_and_the_person_is_told() {
        assertThat(commands.run("/model keyless")).contains("HMP_TEST_UNSET is not set, so no key is sent")
                .doesNotContain("secret");
        assertThat(chosen.switched()).isTrue();
    }

    @Test
    void only_configured_entries_the_client_can_reach_are_switched_to() {
        assertThat(commands.run("/model claude")).isEqualTo("/model: cannot use claude: llm_registry entry claude names"
                + " provider \"gemini\", which this agent does not speak, or no base URL and model");
        assertThatThrownBy(() -> models.use("claude")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no llm_registry entry claude");
        assertThat(chosen.switched()).isFalse();
    }

    @Test
    void the_cycle_thinks_with_the_chosen_entry_from_its_next_tick() throws Exception {
        b.streamed("Thinking with b.", 30, 5);
        RecordingSink sink = new RecordingSink();
        Wiring.Tools tools = Wiring.tools(config, dev.hmpagent.commands.Approver.NOBODY, List.of(),
                Map.of("HMP_TEST_KEY_B", "key-b"), clock, () -> chosen);
        Cycle cycle = Wiring.cycle(config, store, chosen, sink, clock, TestWiring.time(clock), tools);
        commands.run("/model spare");
        new NotesDao(store).add("which model are you?", "user", 0, null);

        assertThat(cycle.tick().worked()).isTrue();

        FakeOpenAiServer.Received atB = b.take();
        assertThat(atB.request().getHeaders().get("Authorization")).isEqualTo("Bearer key-b");
        assertThat(atB.user()).contains("which model are you?");
        assertThat(atB.body().toString()).as("the prompt names the LLM thinking now, not the configured one")
                .contains("model model-b at " + b.baseUrl()).doesNotContain("model " + config.llm().model() + " at");
        assertThat(a.requestCount()).isZero();
        tools.processes().stopAll("test over");
    }

    @Test
    void the_reflexs_switch_returns_to_the_persons_choice_not_past_it() {
        SwitchableLlm thinking = new SwitchableLlm(chosen);   // what the cycle wraps around the LLM it is given
        RegistrySwitch reflex = new RegistrySwitch(new RegistryRoutes(new LlmRegistryDao(store),
                Map.of("HMP_TEST_KEY_B", "key-b")::get, config.llm()), config.llm().model(), thinking);
        models.use("keyless");

        assertThat(reflex.switchToNext()).contains("thinking with model-b");
        assertThat(thinking.model()).isEqualTo("model-b");
        assertThat(reflex.restore()).contains("back to model-c, the LLM in use before the switch");
        assertThat(thinking.model()).isEqualTo("model-c");

        models.use("main");
        reflex.switchToNext();
        assertThat(reflex.restore()).contains("back to the configured LLM, model-a");
    }

    @Test
    void ctrl_c_cancels_the_call_in_flight_though_the_next_calls_were_switched_elsewhere() throws Exception {
        Blocking first = new Blocking();
        Blocking second = new Blocking();
        SwitchableLlm llm = new SwitchableLlm(first);
        dev.hmpagent.llm.CallCancel ctrlC = new dev.hmpagent.llm.CallCancel();
        Thread caller = new Thread(() -> llm.complete(HELLO, StreamListener.NONE, ctrlC));
        caller.start();
        assertThat(first.started.await(5, TimeUnit.SECONDS)).isTrue();

        llm.use(second);
        ctrlC.cancel();

        caller.join(5_000);
        assertThat(caller.isAlive()).isFalse();
        assertThat(first.cancelled.getCount()).isZero();
        assertThat(second.cancelled.getCount()).isOne();
    }

    /** A call that lasts until it is cancelled. */
    static final class Blocking implements LlmClient {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch cancelled = new CountDownLatch(1);

        @Override
        public Completion complete(LlmRequest request, StreamListener listener, dev.hmpagent.llm.CallCancel cancel) {
            cancel.onCancel(cancelled::countDown);
            started.countDown();
            try {
                cancelled.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new Completion("", new Usage(0, 0, true), "blocking", "", true);
        }

        @Override
        public String endpoint() { return "http://blocking"; }

        @Override
        public String model() { return "blocking"; }
    }
}
