package dev.hmpagent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.a2a.ChildAgents;
import dev.hmpagent.commands.Approver;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.AgentSection;
import dev.hmpagent.process.AgentChildren;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.SafetyMonitor;
import dev.hmpagent.store.HaltFlag;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stop of the parent's own (a lockout, a limit) halts its children as a person's halt does; the reflex's rest
 * does not. The children's processes are stand-ins; what is asserted is each child's file.
 */
class ParentStopHaltsChildrenTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    Store store;
    AgentChildren supervisor;
    SafetyMonitor monitor;
    Path childDb;

    @BeforeEach
    void open() {
        Path db = dir.resolve("agent.db");
        store = Store.open(db, clock);
        AgentConfig d = AgentConfig.defaults();
        AgentConfig config = new AgentConfig(new AgentSection(db, "parent"), d.llm(), d.cycle(), d.context(), d.run(),
                d.policy(), d.files(), d.shell(), d.cleanup(), d.safety(), d.stagnation(), d.sandbox(), d.mcp(), d.a2a());
        Wiring.Tools real = TestWiring.tools(config, Approver.NOBODY, clock);
        supervisor = new AgentChildren(3, (delay, task) -> { }, spec -> new ProcessBuilder("sleep", "30").start(),
                () -> 0, line -> { });
        ChildAgents children = new ChildAgents(db, config.llm(), Map.of(), Map.of(), supervisor);
        Wiring.Tools tools = new Wiring.Tools(real.processes(), real.roots(), real.shell(), real.approver(),
                real.completions(), real.llmTasks(), real.jitter(), real.variables(), real.confinement(), real.mcp(),
                real.secrets(), real.peers(), children);
        monitor = Wiring.monitor(config, store, new RecordingSink(), tools);
        children.spawn(new ChildAgents.Request("helper", Optional.empty(), OptionalDouble.empty(), Optional.empty()),
                store.tables().peers());
        childDb = ChildAgents.db(db, "helper");
    }

    @AfterEach
    void close() {
        supervisor.stopAll(Duration.ofMillis(100));
        store.close();
    }

    @Test
    void a_stop_of_the_parents_own_halts_the_children() {
        monitor.quotaExhausted("every LLM refused: quota", "m at http://llm.test/v1");

        assertThat(new SafetyControl(store).current().label()).isEqualTo("STOPPED(quota)");
        HaltFlag flag = new HaltFlag(childDb);
        assertThat(flag.raised()).as("the child (no file yet) is halted by its flag").isTrue();
        assertThat(flag.reason()).hasValueSatisfying(r -> assertThat(r).startsWith("the parent stopped: ")
                .contains("quota"));
    }

    @Test
    void the_reflexs_rest_leaves_the_children_alone() {
        monitor.rest(clock.instant().plusSeconds(60), "nothing new");

        assertThat(new SafetyControl(store).current().state().name()).isEqualTo("RESTING");
        assertThat(new HaltFlag(childDb).raised()).isFalse();
    }
}
