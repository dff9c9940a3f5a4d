package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.llm.Usage;
import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import dev.hmpagent.testing.SqlFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The default budget tells a runaway from work (issue 23): through the real cycle with the default limits, a scripted
 * model whose usage is that of the measured runs (prompts of ~2.6k tokens growing by 50 a call; with a cache, the
 * previous prompt read from it) and a fake clock, 30 polls of a growing job finish, and a runaway (every result
 * answered by another command, each one new) is stopped by the budget or the task cap (safety.tick_cap).
 */
class BudgetTellsRunawayFromWorkTest {
    static final int COMPLETION = 120;

    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-27T10:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();
    final RecordingSink sink = new RecordingSink();
    Store store;
    Path workspace;

    @BeforeEach
    void open() throws IOException {
        store = Store.open(dir.resolve("agent.db"), clock);
        workspace = Files.createDirectories(dir.resolve("workspace"));
    }

    @AfterEach
    void close() {
        store.close();
    }

    /** The defaults on this file, autonomous: the token budget and tick cap are the shipped ones. */
    Cycle cycle() {
        AgentConfig config = AntiStagnationTest.config("cycle.autonomous", "true", "agent.db",
                dir.resolve("agent.db").toString());
        assertThat(config.safety().tokenBudget()).isEqualTo(1_000_000);
        assertThat(config.safety().tickCap()).isEqualTo(500);
        return TestWiring.cycle(config, store, llm, sink, clock);
    }

    /** Call {@code n}'s usage (1-based): the prompt grows by 50 tokens a call; cached, the previous prompt was read. */
    static Usage usage(int n, boolean cached) {
        int prompt = 2_600 + 50 * n;
        return new Usage(prompt, COMPLETION, false, cached && n > 1 ? prompt - 50 : 0);
    }

    long taskTokens() {
        return Long.parseLong(new SqlFile(dir.resolve("agent.db")).rows("SELECT task_tokens FROM safety_counters").get(0));
    }

    String state() {
        return new SafetyControl(store).current().label();
    }

    /** Ticks 30 s apart until {@code calls} requests were made or {@code ticks} ticks passed; after each, {@code after}. */
    void run(Cycle cycle, int calls, int ticks, Runnable after) {
        for (int i = 0; i < ticks && llm.requests.size() < calls; i++) {
            clock.advance(Duration.ofSeconds(30));
            cycle.tick();
            after.run();
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void thirty_polls_of_a_growing_job_finish_with_the_default_budget(boolean cached) throws IOException {
        Path log = workspace.resolve("job.log");
        Files.writeString(log, "job started\n");
        long counted = 0;
        for (int n = 1; n <= 30; n++) {
            Usage u = usage(n, cached);
            counted += u.promptTokens() - u.cachedTokens() + (u.cachedTokens() + 9) / 10 + COMPLETION;
            llm.reply("Poll " + n + ": the job is still running, I look at its log again." + AntiStagnationTest.commands(
                    "{\"cmd_id\": \"p" + n + "\", \"type\": \"file_read\", \"args\": {\"path\": \"job.log\"}}"), u, "fake-model");
        }
        Cycle cycle = cycle();
        new NotesDao(store).add("watch the job until it is done", "user", 0, null);
        int[] polls = {0};
        run(cycle, 30, 40, () -> append(log, "imported row " + (++polls[0] * 100) + " of 3000\n"));

        assertThat(llm.requests).as("every poll was made").hasSize(30);
        assertThat(state()).isEqualTo("ACTIVE");
        assertThat(llm.comparisons).as("polls after new results cost no judge call").isEmpty();
        assertThat(taskTokens()).as("cached prompt tokens count a tenth").isEqualTo(counted);
        assertThat(counted).as(cached ? "with a cache, a fraction" : "uncached: over the old 100,000")
                .isBetween(cached ? 10_000L : 100_001L, cached ? 20_000L : 149_999L);
    }

    @Test
    void a_runaway_without_a_cache_is_refused_before_the_call_that_would_cross_the_budget() {
        scriptRunaway(false);
        AgentConfig config = AntiStagnationTest.config("cycle.autonomous", "true", "agent.db",
                dir.resolve("agent.db").toString(), "safety.token_budget", "150000");
        run(TestWiring.cycle(config, store, llm, sink, clock), 60, 70, () -> { });

        // call n costs 2,600 + 50·n + 120: 40 calls spend 149,800 and the 41st crossed the budget (154,570) while only
        // a spent budget stopped the agent; now a call is refused when its estimate (its prompt and longest reply)
        // would cross the budget, so the task ends under it
        assertThat(llm.requests).as("stopped within 50 calls, before crossing the budget").hasSize(40);
        assertThat(state()).startsWith("STOPPED(budget)");
        assertThat(taskTokens()).isEqualTo(149_800);
        assertThat(new SafetyControl(store).current().detail()).startsWith("token budget: the next call would cross it:"
                + " 149,800 spent + about ").endsWith(" > 150,000 tokens in this task (safety.token_budget)");
    }

    @Test
    void a_runaway_the_cache_makes_cheap_is_still_stopped_by_the_task_cap() {
        scriptRunaway(true);
        // every step is new (progress), so the task cap is the backstop: set to 50 here, below the 60 scripted steps
        Cycle capped = TestWiring.cycle(AntiStagnationTest.config("cycle.autonomous", "true", "agent.db",
                dir.resolve("agent.db").toString(), "safety.tick_cap", "50"), store, llm, sink, clock);
        run(capped, 60, 70, () -> { });

        assertThat(llm.requests).as("stopped at the cap").hasSize(50);
        assertThat(state()).startsWith("SAFETY_LOCKOUT");
        assertThat(taskTokens()).isLessThan(1_000_000);
    }

    /** Sixty replies, each writing a new file: every result is new, so only the budget or the cap can stop it. */
    void scriptRunaway(boolean cached) {
        for (int n = 1; n <= 60; n++) {
            llm.reply("Step " + n + " is done, on to step " + (n + 1) + "." + AntiStagnationTest.commands(
                    "{\"cmd_id\": \"s" + n + "\", \"type\": \"file_write\", \"args\": {\"path\": \"step-" + n
                            + ".txt\", \"content\": \"step " + n + "\"}}"), usage(n, cached), "fake-model");
        }
        new NotesDao(store).add("do the steps", "user", 0, null);
    }

    static void append(Path file, String line) {
        try {
            Files.writeString(file, line, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
