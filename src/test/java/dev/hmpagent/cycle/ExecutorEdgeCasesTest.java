package dev.hmpagent.cycle;

import dev.hmpagent.runtime.TestWiring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.commands.*;
import dev.hmpagent.commands.catalogue.Catalogue;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.cycle.*;
import dev.hmpagent.cli.ReplApprover;
import dev.hmpagent.safety.OperationListener;
import dev.hmpagent.store.*;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.*;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Edge cases of the executor and the policy found in review: each failed before its fix. */
class ExecutorEdgeCasesTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-21T10:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();
    final RecordingSink sink = new RecordingSink();

    static String commands(String json) {
        return "\n# Commands:\n```json\n" + json + "\n```\n# End commands\n";
    }

    /** /quit (loop.stop) while a question is open never returns. */
    @Test
    void stopping_the_loop_while_a_person_is_asked_ends_the_loop() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            new NotesDao(store).add("go", "user", 0, null);
            llm.reply("ok" + commands("[{\"cmd_id\":\"c-1\",\"type\":\"diary_entry\",\"args\":{\"text\":\"x\"}}]"));
            ReplApprover approver = new ReplApprover(s -> { }, true);
            CommandGate ask = c -> CommandGate.Decision.ask("needs approval");
            TickLoop loop = new TickLoop(TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock, ask, approver),
                    new WakeOrPollPacer(Duration.ofHours(1)), TimeSource.system(), Duration.ZERO, () -> true, sink);
            loop.start();
            long until = System.nanoTime() + 10_000_000_000L;
            while (!approver.waiting() && System.nanoTime() < until) Thread.onSpinWait();
            assertThat(approver.waiting()).isTrue();
            loop.stop(false);                       // what Repl.run does on /quit or Ctrl-D
            CompletableFuture<TickLoop.End> ended = CompletableFuture.supplyAsync(() -> {
                try { return loop.awaitStopped(); } catch (InterruptedException e) { throw new RuntimeException(e); }
            });
            try {
                assertThat(ended.get(3, TimeUnit.SECONDS)).as("the loop ends once stopped").isNotNull();
            } finally {
                approver.offer("n");                // unblock so the test cleans up
                loop.awaitStopped();
            }
        }
    }

    /** a store failure after an external command was claimed leaves the row 'running' for ever. */
    @Test
    void a_store_failure_after_claiming_an_external_command_does_not_leave_it_running_for_ever() throws Exception {
        Path db = dir.resolve("agent.db");
        try (Store main = Store.open(db, clock); Store store = main.connectAgain(Duration.ofMillis(100))) {
            Connection[] holder = new Connection[1];
            ExternalCommand refusedAtCap = new ExternalCommand() {
                public String type() { return "ext"; }
                public String summary() { return "ext"; }
                public String argsExample() { return "{}"; }
                public Optional<CommandOutcome> start(Args a, CommandContext c, long id, Consumer<CommandOutcome> d) {
                    try {   // e.g. `agent note` from another process takes the write lock just now
                        holder[0] = DriverManager.getConnection("jdbc:sqlite:" + db);
                        holder[0].createStatement().execute("BEGIN IMMEDIATE");
                    } catch (Exception e) { throw new RuntimeException(e); }
                    return Optional.of(CommandOutcome.error("EBUSY", "shell: 4 processes already running"));
                }
            };
            CommandRegistry registry = Catalogue.builtIn().register(refusedAtCap);
            CommandExecutor executor = new CommandExecutor(store, registry, new ObjectMapper(), CommandGate.ALLOW_ALL,
                    Approver.NOBODY, OperationListener.NONE);
            ProcessLogDao log = new ProcessLogDao(store);
            long id = log.enqueue(1, "ext", "c-1", "{\"cmd_id\":\"c-1\",\"type\":\"ext\",\"args\":{}}", "fp");

            executor.runPending(1, "m", dev.hmpagent.safety.StopSignal.over(store).since(), () -> false, r -> { });
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> executor.recordResults(r -> { }))
                    .isInstanceOf(StoreException.class);   // the file refuses the write: the result is kept
            holder[0].createStatement().execute("ROLLBACK");
            holder[0].close();
            assertThat(executor.recordResults(r -> { })).singleElement()
                    .satisfies(r -> assertThat(r.result()).contains("4 processes already running"));

            assertThat(log.status(id)).as("nothing runs it any more; it must not stay in flight")
                    .hasValueSatisfying(s -> assertThat(s.inFlight()).isFalse());
        }
    }

    /** a secret the LLM writes is refused "and not stored", but process_log.value keeps it. */
    @Test
    void a_refused_secret_is_not_stored_in_process_log() throws Exception {
        Path db = dir.resolve("agent.db");
        try (Store store = Store.open(db, clock)) {
            new NotesDao(store).add("record my reddit account", "user", 0, null);
            llm.reply("ok" + commands("[{\"cmd_id\":\"c-1\",\"type\":\"account_add\",\"args\":{\"service\":\"Reddit\","
                    + "\"login\":\"bot\",\"password\":\"hunter2-SuperSecret\"}}]"));
            TestWiring.cycle(AgentConfig.defaults(), store, llm, sink, clock).tick();
            ProcessRow row = new ProcessLogDao(store).byTick(1).get(0);
            assertThat(row.result()).contains("refused").contains("args.password");
            assertThat(row.value()).as("process_log.value").doesNotContain("hunter2-SuperSecret");
        }
    }

    /** process_close by a reused cmd_id closes a still-running process row; its result is then dropped. */
    @Test
    void closing_by_cmd_id_does_not_swallow_the_result_of_a_running_process() throws Exception {
        try (Store store = Store.open(dir.resolve("agent.db"), clock)) {
            @SuppressWarnings("unchecked") Consumer<CommandOutcome>[] done = new Consumer[1];
            ExternalCommand slow = new ExternalCommand() {
                public String type() { return "ext"; }
                public String summary() { return "ext"; }
                public String argsExample() { return "{}"; }
                public Optional<CommandOutcome> start(Args a, CommandContext c, long id, Consumer<CommandOutcome> d) {
                    done[0] = d;
                    return Optional.empty();
                }
            };
            CommandExecutor executor = new CommandExecutor(store, Catalogue.builtIn().register(slow),
                    new ObjectMapper(), CommandGate.ALLOW_ALL, Approver.NOBODY, OperationListener.NONE);
            ProcessLogDao log = new ProcessLogDao(store);
            long id = log.enqueue(1, "ext", "c-1", "{\"cmd_id\":\"c-1\",\"type\":\"ext\",\"args\":{}}", "fp");
            executor.runPending(1, "m", dev.hmpagent.safety.StopSignal.over(store).since(), () -> false, r -> { });
            log.markSeen(java.util.List.of(id), 2);          // tick 2's prompt showed it (running)
            log.close("c-1");                                // tick 2: process_close {"ids":["c-1"]} (an older c-1 meant)
            done[0].accept(CommandOutcome.ok("exit 0 after 5.0 s\nimportant output"));

            executor.recordResults(r -> { });
            assertThat(log.get(id).orElseThrow().result()).as("the process's result").contains("important output");
        }
    }

    /** the child's env is scrubbed, but the agent's own env (API keys) is one cat away. */
    @Test
    void the_agents_own_environment_is_not_readable_under_an_allow_cat_rule() {
        var surface = dev.hmpagent.policy.ControlSurface.forDatabase(dir.resolve("agent.db"), java.util.List.of());
        var policy = new dev.hmpagent.policy.ShellPolicy(new dev.hmpagent.policy.ShellRules(
                java.util.List.of(), java.util.List.of(), java.util.List.of("cat")), surface, false);
        assertThat(policy.check("cat /proc/$PPID/environ", dir).verdict())
                .isNotEqualTo(dev.hmpagent.policy.ShellPolicy.Verdict.ALLOW);
    }
}
