package dev.hmpagent.runtime;

import dev.hmpagent.commands.Approver;
import dev.hmpagent.commands.CommandGate;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.cycle.Cycle;
import dev.hmpagent.cycle.TimeSource;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * Tests' shortcuts through {@link Wiring}: the tools with a clean environment (only PATH, so what the developer's
 * shell exports, keys included, never reaches a test's commands), nobody to ask.
 */
public final class TestWiring {
    /** The environment the tools see: PATH alone. */
    static final Map<String, String> CLEAN = Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));

    private TestWiring() { }

    /** The tools of {@code config} with only PATH in their environment, {@code approver} answering. */
    public static Wiring.Tools tools(AgentConfig config, Approver approver, Clock clock) {
        return Wiring.tools(config, approver, List.of(), CLEAN, clock, () -> LlmChain.client(config.llm()));
    }

    /** The cycle on {@code store} with the configured policy and nobody to ask. */
    public static Cycle cycle(AgentConfig config, Store store, LlmClient llm, EventSink events, Clock clock) {
        return Wiring.cycle(config, store, llm, events, clock, time(clock), tools(config, Approver.NOBODY, clock));
    }

    /**
     * The monotonic time that goes with {@code clock}: a {@link MutableClock}'s own (time a test lets pass moves both,
     * a step of the wall moves only the wall), else the machine's.
     */
    public static TimeSource time(Clock clock) {
        return clock instanceof MutableClock m ? m.monotonic() : TimeSource.system();
    }

    /** The cycle on {@code store}, its commands checked by {@code gate} (instead of the policy) and {@code approver}. */
    public static Cycle cycle(AgentConfig config, Store store, LlmClient llm, EventSink events, Clock clock,
                              CommandGate gate, Approver approver) {
        return Wiring.cycle(config, store, llm, events, clock, time(clock), tools(config, approver, clock), gate);
    }

    /** What a start writes about the LLMs (llm_registry, a quota stop's release), as the runtime does. */
    public static void startWrites(Store store, AgentConfig config, EventSink events) {
        StartWrites.llms(store, config.llm(), events);
    }
}
