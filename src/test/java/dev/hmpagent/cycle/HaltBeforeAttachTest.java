package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.commands.Args;
import dev.hmpagent.commands.CommandContext;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.catalogue.Catalogue;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.AgentSection;
import dev.hmpagent.config.ConfigLoader;
import dev.hmpagent.config.ConfigSources;
import dev.hmpagent.delegation.LlmTasks;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.MeteredLlm;
import dev.hmpagent.store.LlmCall;
import dev.hmpagent.llm.SwitchableLlm;
import dev.hmpagent.llm.openai.OpenAiClient;
import dev.hmpagent.llm.openai.OpenAiSettings;
import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeOpenAiServer;
import dev.hmpagent.testing.HeldLlm;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A halt that lands after the cycle entered AWAITING_LLM but before the provider's client attached its HTTP call is
 * remembered at the top of the chain: the call attached after it is aborted, and no request reaches the server.
 */
class HaltBeforeAttachTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-27T09:00:00Z");
    final RecordingSink sink = new RecordingSink();
    FakeOpenAiServer server;
    HeldLlm held;
    Store store;

    @BeforeEach
    void open() throws Exception {
        server = new FakeOpenAiServer();
        store = Store.open(dir.resolve("agent.db"), clock);
    }

    @AfterEach
    void close() {
        if (held != null) held.goOn.countDown();
        store.close();
        server.close();
    }

    @Test
    void a_halt_before_the_http_call_is_attached_aborts_it_and_no_request_reaches_the_server() throws Exception {
        server.plain("A whole reply that must never be asked for.", 3300, 10);
        AgentConfig d = ConfigLoader.load(ConfigSources.envOnly(Map.of("AGENT_STAGNATION_METHOD", "local"))).config();
        AgentConfig config = new AgentConfig(new AgentSection(dir.resolve("agent.db"), "tester"), d.llm(), d.cycle(),
                d.context(), d.run(), d.policy(), d.files(), d.shell(), d.cleanup(), d.safety(), d.stagnation());
        LlmClient http = new OpenAiClient(new OpenAiSettings(server.baseUrl(), "", "test-model", false,
                Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofSeconds(30)));
        held = new HeldLlm(http);
        Cycle cycle = TestWiring.cycle(config, store, new SwitchableLlm(held), sink, clock);
        new NotesDao(store).add("what time is it?", "user", 0, null);

        AtomicReference<TickResult> result = new AtomicReference<>();
        Thread tick = new Thread(() -> result.set(cycle.tick()), "tick");
        tick.start();
        assertThat(held.entered.await(30, TimeUnit.SECONDS)).as("the call is on its way down the chain").isTrue();
        assertThat(cycle.status().phase()).isEqualTo(CycleStatus.Phase.AWAITING_LLM);

        cycle.stops().halt();   // what the control watcher does on `agent halt`
        held.goOn.countDown();  // only now does the provider's client attach its HTTP call
        tick.join(TimeUnit.SECONDS.toMillis(30));

        assertThat(tick.isAlive()).isFalse();
        assertThat(result.get().outcome()).isEqualTo("interrupted");
        assertThat(server.requestCount()).as("the call attached after the halt never reached the server").isZero();
        assertThat(new NotesDao(store).unreadCount()).as("the message waits for an answer").isEqualTo(1);
    }

    /**
     * The same window for an {@code llm_task}: the task call's own {@code CallCancel} is what a halt cancels, so the
     * request attached after it never goes out (the old road, the client's {@code cancel()}, found no call in flight).
     */
    @Test
    void a_halt_before_the_task_call_is_attached_ends_the_task_ehalt_and_no_request_reaches_the_server()
            throws Exception {
        server.plain("A summary that must never be asked for.", 100, 10);
        held = new HeldLlm(new OpenAiClient(new OpenAiSettings(server.baseUrl(), "", "task-model", false,
                Duration.ofSeconds(5), Duration.ofSeconds(30))));
        LlmTasks tasks = new LlmTasks(() -> new MeteredLlm<>(held, clock, CallRows.as(LlmCall.Purpose.TASK)), 0.7, 100);
        CompletableFuture<CommandOutcome> done = new CompletableFuture<>();

        tasks.start(new Args("llm_task", "{}", new ObjectMapper().createObjectNode().put("task_description",
                "summarise the log")), new CommandContext(1, "m", Catalogue.builtIn(), store), 7, done::complete);
        assertThat(held.entered.await(10, TimeUnit.SECONDS)).as("the task call is on its way down the chain").isTrue();
        assertThat(tasks.cancelAll()).as("what a halt does").isEqualTo(1);
        held.goOn.countDown();   // only now does the provider's client attach its HTTP call

        CommandOutcome outcome = done.get(10, TimeUnit.SECONDS);
        assertThat(outcome.code()).isEqualTo(dev.hmpagent.safety.ErrorCode.EHALT);
        assertThat(outcome.result()).contains("cancelled by a halt");
        assertThat(server.requestCount()).as("the task's request never reached the server").isZero();
    }
}
