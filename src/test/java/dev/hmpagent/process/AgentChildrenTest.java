package dev.hmpagent.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The supervisor of spawned agents: a child that dies starts again after 1 s, 2 s, 4 s … (at most 60 s), from 1 s again
 * after a long run; at most {@code max} children; {@code stopAll} ends them and none starts again. Restarts go through
 * a scheduler the test runs by hand (no sleeps); the children are small real processes.
 */
class AgentChildrenTest {
    @TempDir Path dir;

    record Scheduled(Duration delay, Runnable task) { }

    final BlockingQueue<Scheduled> scheduled = new LinkedBlockingQueue<>();
    final List<String> said = new CopyOnWriteArrayList<>();
    final List<Process> started = new CopyOnWriteArrayList<>();
    final AtomicLong nanos = new AtomicLong();
    AgentChildren children;

    AgentChildren supervisor(int max, String script) {
        children = new AgentChildren(max, (delay, task) -> scheduled.add(new Scheduled(delay, task)), spec -> {
            Process p = new ProcessBuilder("/bin/sh", "-c", script).start();
            started.add(p);
            return p;
        }, nanos::get, said::add);
        return children;
    }

    AgentChildren.Spec spec(String name) {
        return new AgentChildren.Spec(name, List.of("unused"), Map.of(), dir, dir.resolve(name + ".log"));
    }

    Scheduled nextRestart() throws InterruptedException {
        Scheduled s = scheduled.poll(30, TimeUnit.SECONDS);
        assertThat(s).as("a restart was scheduled").isNotNull();
        return s;
    }

    @AfterEach
    void stop() {
        if (children != null) children.stopAll();
    }

    @Test
    void the_back_off_doubles_from_one_second_and_stops_at_sixty() {
        List<Long> seconds = new ArrayList<>();
        for (int i = 1; i <= 9; i++) seconds.add(AgentChildren.backoff(i).toSeconds());
        assertThat(seconds).containsExactly(1L, 2L, 4L, 8L, 16L, 32L, 60L, 60L, 60L);
    }

    @Test
    void a_child_that_dies_is_started_again_after_one_two_then_four_seconds() throws Exception {
        AgentChildren c = supervisor(3, "exit 3");
        assertThat(c.start(spec("helper"))).isEmpty();
        List<Long> delays = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Scheduled s = nextRestart();
            delays.add(s.delay().toSeconds());
            if (i == 0) {
                assertThat(c.states().get(0).phase()).isEqualTo(AgentChildren.Phase.RESTARTING);
                assertThat(c.states().get(0).line()).isEqualTo("exited with code 3; starting again in 1 s");
            }
            s.task().run();
        }
        assertThat(delays).containsExactly(1L, 2L, 4L);
        assertThat(started).as("started once and again three times").hasSize(4);
        assertThat(c.states().get(0).restarts()).isEqualTo(3);
        assertThat(said).first().asString().isEqualTo("child helper exited with code 3; starting again in 1 s");
    }

    @Test
    void a_child_that_ran_a_minute_starts_again_after_one_second() throws Exception {
        AgentChildren c = supervisor(3, "read line; exit 1");
        assertThat(c.start(spec("helper"))).isEmpty();
        started.get(0).getOutputStream().close();   // it ends at once
        nextRestart().task().run();
        assertThat(started).hasSize(2);
        nanos.addAndGet(Duration.ofSeconds(61).toNanos());   // the second run lasted a minute
        started.get(1).getOutputStream().close();
        assertThat(nextRestart().delay()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void no_more_children_than_the_limit_are_started() {
        AgentChildren c = supervisor(1, "sleep 30");
        assertThat(c.start(spec("one"))).isEmpty();
        Optional<String> refused = c.start(spec("two"));
        assertThat(refused).hasValue("already 1 children, the most a2a.max_children allows (1); raise it in agent.toml"
                + " or let a child go");
        assertThat(c.start(spec("one"))).hasValueSatisfying(l -> assertThat(l).contains("already runs"));
        assertThat(started).hasSize(1);
    }

    @Test
    void stop_all_ends_every_child_and_none_starts_again() throws Exception {
        AgentChildren c = supervisor(3, "sleep 30");
        c.start(spec("one"));
        c.start(spec("two"));
        c.stopAll();
        for (Process p : started) assertThat(p.isAlive()).isFalse();
        assertThat(c.states()).extracting(AgentChildren.State::phase)
                .containsExactly(AgentChildren.Phase.STOPPED, AgentChildren.Phase.STOPPED);
        assertThat(scheduled.poll(200, TimeUnit.MILLISECONDS)).as("no restart after a stop").isNull();
        assertThat(c.start(spec("three"))).hasValue("the agent is stopping; no child is started");
    }

    @Test
    void a_child_that_ignores_sigterm_is_killed_after_the_grace() throws IOException {
        // trap TERM: only the kill after the grace ends it
        AgentChildren c = supervisor(1, "trap '' TERM; echo ready; sleep 30 & wait; sleep 30");
        c.start(spec("stubborn"));
        String ready = new String(started.get(0).getInputStream().readNBytes(6));
        assertThat(ready).isEqualTo("ready\n");
        c.stopAll(Duration.ofMillis(100));
        assertThat(started.get(0).isAlive()).isFalse();
    }

    @Test
    void the_command_line_runs_this_program_from_this_class_path_with_the_long_run_flags() {
        List<String> argv = AgentChildren.agentCommand(List.of("run"));
        assertThat(argv.get(0)).endsWith("java");
        List<String> expected = new java.util.ArrayList<>(AgentChildren.LONG_RUN_FLAGS);
        expected.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.hmpagent.cli.Main", "run"));
        assertThat(argv.subList(1, argv.size())).as("the lean flags of a long run, then the program").isEqualTo(expected);
        assertThat(argv).contains("-XX:+UseSerialGC", "-Xms8m", "-XX:TrimNativeHeapInterval=5000");
    }

    @Test
    void scripts_agent_starts_agent_run_with_the_same_flags_as_a_spawned_child() throws Exception {
        String script = java.nio.file.Files.readString(java.nio.file.Path.of("scripts/agent"));
        for (String flag : AgentChildren.LONG_RUN_FLAGS) {
            assertThat(script).as("scripts/agent gives `agent run` " + flag).contains(flag);
        }
    }
}
