package dev.hmpagent.cycle;

import dev.hmpagent.runtime.TestWiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.commands.Approver;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.ConfigLoader;
import dev.hmpagent.config.ConfigSources;
import dev.hmpagent.llm.FatalLlmException;
import dev.hmpagent.llm.RetryableLlmException;
import dev.hmpagent.llm.Usage;
import dev.hmpagent.store.AgentLogDao;
import dev.hmpagent.store.LlmCall;
import dev.hmpagent.store.LlmCall.Outcome;
import dev.hmpagent.store.LlmCall.Purpose;
import dev.hmpagent.store.LlmCallsDao;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.TickRecord;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every LLM call of a tick is one llm_calls row, written in the transaction that records the call. */
class LlmCallRowsTest {
    static final String A = "The backup failed at 02:14 because the firewall reload resets long uploads; the fix is an"
            + " ESTABLISHED rule, and I will write the ticket for the network team today.";
    static final String B = "Restores were never tested: a scratch disk on the build server can hold a full restore,"
            + " and checksums will show whether every volume survived the upload.";

    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-25T10:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();
    final FakeLlmClient taskLlm = new FakeLlmClient();
    final RecordingSink sink = new RecordingSink();
    final Semaphore arrived = new Semaphore(0);
    Store store;
    NotesDao notes;
    LlmCallsDao calls;
    AgentLogDao agentLog;

    @BeforeEach
    void open() {
        store = Store.open(dir.resolve("agent.db"), clock);
        notes = new NotesDao(store);
        calls = new LlmCallsDao(store);
        agentLog = new AgentLogDao(store);
    }

    @AfterEach
    void close() {
        store.close();
    }

    static AgentConfig config(String... keyValues) {
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            env.put("AGENT_" + keyValues[i].toUpperCase(java.util.Locale.ROOT).replace('.', '_'), keyValues[i + 1]);
        }
        return ConfigLoader.load(ConfigSources.envOnly(env)).config();
    }

    Cycle cycle(AgentConfig config) {
        Wiring.Tools tools = Wiring.tools(config, Approver.NOBODY, List.of(), Map.of(), clock, () -> taskLlm);
        tools.completions().onArrival(arrived::release);
        return Wiring.cycle(config, store, llm, sink, clock, TestWiring.time(clock), tools);
    }

    static String commands(String json) {
        return "\n# Commands:\n```json\n" + json + "\n```\n# End commands\n";
    }

    @Test
    void the_main_call_is_one_row_with_the_model_that_answered_and_the_cached_tokens_of_its_usage() {
        llm.reply("Noted.", new Usage(1_200, 40, false, 1_000), "gpt-test-2026-01-01");
        notes.add("hello", "user", 0, null);

        cycle(config("stagnation.method", "local")).tick();

        assertThat(calls.ofTick(1)).containsExactly(new LlmCall(Purpose.MAIN, Instant.parse("2026-11-25T10:00:00Z"),
                "gpt-test-2026-01-01", "http://fake/v1", 1_200, 1_000, 40, false, 0, Outcome.OK, ""));
        assertThat(sink.of(dev.hmpagent.event.AgentEvent.CallEnded.class)).singleElement().satisfies(e -> {
            assertThat(e.model()).isEqualTo("gpt-test-2026-01-01");
            assertThat(e.cachedTokens()).as("the figures line shows them").isEqualTo(1_000);
        });
        TickRecord tick = agentLog.latest(1).get(0);
        assertThat(tick.promptTokens()).as("agent_log counts the same call").isEqualTo(1_200);
        assertThat(tick.completionTokens()).isEqualTo(40);
    }

    @Test
    void a_comparison_call_is_a_row_of_its_own_beside_the_main_call_and_agent_log_counts_the_same_tokens() {
        llm.judgeModel = "judge-mini";
        llm.judgeCachedTokens = 30;
        llm.reply(A).reply(B);
        Cycle cycle = cycle(config("stagnation.method", "llm"));
        notes.add("one", "user", 0, null);
        cycle.tick();
        notes.add("two", "user", 0, null);
        cycle.tick();

        assertThat(calls.ofTick(1)).extracting(LlmCall::purpose).as("the first reply has nothing to compare with")
                .containsExactly(Purpose.MAIN);
        List<LlmCall> second = calls.ofTick(2);
        assertThat(second).extracting(LlmCall::purpose, LlmCall::model, LlmCall::cachedTokens, LlmCall::outcome)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(Purpose.MAIN, "fake-model", 0, Outcome.OK),
                        org.assertj.core.groups.Tuple.tuple(Purpose.COMPARISON, "judge-mini", 30, Outcome.OK));
        TickRecord tick = agentLog.latest(1).get(0);
        assertThat(second.get(0).promptTokens()).isEqualTo(tick.promptTokens());
        assertThat(second.get(0).completionTokens()).isEqualTo(tick.completionTokens());
        assertThat(second.get(1).promptTokens() + second.get(1).completionTokens()).isEqualTo(tick.comparisonTokens());
        assertThat(second.get(1).estimated()).as("the fake server sends no usage").isTrue();
    }

    @Test
    void a_failed_main_call_is_an_error_row_of_the_model_asked_with_its_kind_and_no_tokens() {
        llm.fail(new RetryableLlmException("timeout", "http://fake/v1 did not answer in 60 s", null, null));
        notes.add("hello", "user", 0, null);

        cycle(config("stagnation.method", "local")).tick();

        assertThat(agentLog.latest(1).get(0).outcome()).isEqualTo("llm_error");
        assertThat(calls.ofTick(1)).containsExactly(new LlmCall(Purpose.MAIN, Instant.parse("2026-11-25T10:00:00Z"),
                "fake-model", "http://fake/v1", 0, 0, 0, false, 0, Outcome.ERROR, "timeout"));
    }

    @Test
    void a_refused_main_call_is_recorded_once_and_not_again_by_the_next_tick() {
        llm.fail(new FatalLlmException("http_401", "the key was refused", null)).reply("fine now");
        Cycle cycle = cycle(config("stagnation.method", "local"));
        notes.add("hello", "user", 0, null);
        cycle.tick();
        notes.add("new key set", "user", 0, null);
        cycle.tick();

        assertThat(calls.ofTick(1)).extracting(LlmCall::outcome, LlmCall::errorKind)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(Outcome.ERROR, "http_401"));
        assertThat(calls.ofTick(2)).extracting(LlmCall::outcome).containsExactly(Outcome.OK);
    }

    @Test
    void a_cut_short_reply_is_an_interrupted_row_with_the_tokens_it_spent() {
        llm.interruptedReply("I was about to");
        notes.add("hello", "user", 0, null);

        cycle(config("stagnation.method", "local")).tick();

        LlmCall row = calls.ofTick(1).get(0);
        assertThat(row.outcome()).isEqualTo(Outcome.INTERRUPTED);
        assertThat(row.errorKind()).isEmpty();
        assertThat(row.completionTokens()).isPositive().isEqualTo(agentLog.latest(1).get(0).completionTokens());
    }

    @Test
    void a_call_cancelled_while_its_client_threw_is_an_interrupted_row_counted_as_agent_log_counts_it() {
        notes.add("go", "user", 0, null);
        Cycle[] holder = new Cycle[1];
        dev.hmpagent.llm.LlmClient cancelledThenThrew = new dev.hmpagent.llm.LlmClient() {
            @Override
            public dev.hmpagent.llm.Completion complete(dev.hmpagent.llm.LlmRequest request,
                                                      dev.hmpagent.llm.StreamListener listener, dev.hmpagent.llm.CallCancel cancel) {
                holder[0].cancelInFlight();   // Ctrl-C, and the client gives up with an exception
                throw new RetryableLlmException("cancelled", "the call was cancelled", null, null);
            }

            @Override
            public String endpoint() { return "http://fake/v1"; }

            @Override
            public String model() { return "m"; }
        };
        holder[0] = TestWiring.cycle(config("stagnation.method", "local"), store, cancelledThenThrew, sink, clock);

        assertThat(holder[0].tick().outcome()).isEqualTo("interrupted");

        TickRecord tick = agentLog.latest(1).get(0);
        assertThat(calls.ofTick(1)).singleElement().satisfies(c -> {
            assertThat(c.outcome()).isEqualTo(Outcome.INTERRUPTED);
            assertThat(c.errorKind()).isEmpty();
            assertThat(c.estimated()).isTrue();
            assertThat(c.promptTokens()).isPositive().isEqualTo(tick.promptTokens());
            assertThat(c.completionTokens()).as("nothing arrived, nothing out").isZero()
                    .isEqualTo(tick.completionTokens());
        });
    }

    @Test
    void a_failed_comparison_call_is_an_error_row_and_the_tick_goes_on() {
        llm.judge = r -> {
            throw new RetryableLlmException("http_503", "the judge is down", null, null);
        };
        llm.reply(A).reply(B);
        Cycle cycle = cycle(config("stagnation.method", "llm"));
        notes.add("one", "user", 0, null);
        cycle.tick();
        notes.add("two", "user", 0, null);

        assertThat(cycle.tick().outcome()).isEqualTo("thought");
        assertThat(calls.ofTick(2)).extracting(LlmCall::purpose, LlmCall::outcome, LlmCall::errorKind)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(Purpose.MAIN, Outcome.OK, ""),
                        org.assertj.core.groups.Tuple.tuple(Purpose.COMPARISON, Outcome.ERROR, "http_503"));
    }

    @Test
    void an_llm_task_call_is_a_row_of_the_tick_that_asked_written_with_its_result() throws Exception {
        taskLlm.reply("Paris.", new Usage(300, 5, false, 256), "helper-model");
        llm.reply("Delegating." + commands("{\"cmd_id\": \"t\", \"type\": \"llm_task\", \"args\": "
                + "{\"task_description\": \"What is the capital of France?\"}}")).reply("Paris, then.");
        Cycle cycle = cycle(config("stagnation.method", "local"));
        notes.add("ask a helper", "user", 0, null);
        cycle.tick();
        assertThat(arrived.tryAcquire(30, TimeUnit.SECONDS)).as("the task answered").isTrue();
        assertThat(calls.ofTick(1)).as("not before its result is written").hasSize(1);

        cycle.tick();

        assertThat(calls.ofTick(1)).extracting(LlmCall::purpose, LlmCall::model, LlmCall::promptTokens,
                        LlmCall::cachedTokens, LlmCall::completionTokens)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(Purpose.MAIN, "fake-model",
                                calls.ofTick(1).get(0).promptTokens(), 0, calls.ofTick(1).get(0).completionTokens()),
                        org.assertj.core.groups.Tuple.tuple(Purpose.TASK, "helper-model", 300, 256, 5));
        assertThat(calls.ofTick(2)).extracting(LlmCall::purpose).containsExactly(Purpose.MAIN);
        TickRecord tick1 = agentLog.latest(2).get(1);
        assertThat(tick1.promptTokens()).as("agent_log adds the task's tokens to the tick that asked")
                .isEqualTo(calls.ofTick(1).stream().mapToInt(LlmCall::promptTokens).sum());
        long mains = java.util.stream.Stream.of(calls.ofTick(1).get(0), calls.ofTick(2).get(0))
                .mapToLong(c -> c.promptTokens() + c.completionTokens()).sum();
        assertThat(store.tables().safetyCounters().current().taskTokens())
                .as("the task's budget counts the helper's cached prompt tokens at a tenth, as the cycle's")
                .isEqualTo(mains + (300 - 256) + 26 + 5);
    }

    @Test
    void a_failed_llm_task_call_is_an_error_row() throws Exception {
        taskLlm.fail(new RetryableLlmException("connect", "helper unreachable", null, null));
        llm.reply("Delegating." + commands("{\"cmd_id\": \"t\", \"type\": \"llm_task\", \"args\": "
                + "{\"task_description\": \"sum 2 and 2\"}}")).reply("I will do it myself.");
        Cycle cycle = cycle(config("stagnation.method", "local"));
        notes.add("ask a helper", "user", 0, null);
        cycle.tick();
        assertThat(arrived.tryAcquire(30, TimeUnit.SECONDS)).isTrue();
        cycle.tick();

        assertThat(calls.ofTick(1)).extracting(LlmCall::purpose, LlmCall::outcome, LlmCall::errorKind)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(Purpose.MAIN, Outcome.OK, ""),
                        org.assertj.core.groups.Tuple.tuple(Purpose.TASK, Outcome.ERROR, "connect"));
    }
}
