package dev.hmpagent.cli;

import static dev.hmpagent.cli.SelfControlScenario.fileRead;
import static dev.hmpagent.cli.SelfControlScenario.fileWrite;
import static dev.hmpagent.cli.SelfControlScenario.none;
import static dev.hmpagent.cli.SelfControlScenario.reply;
import static dev.hmpagent.cli.SelfControlScenario.say;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.cli.SelfControlRun.Call;
import dev.hmpagent.cli.SelfControlRun.Model;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.testing.FakeOpenAiServer;
import dev.hmpagent.testing.SqlFile;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import mockwebserver3.MockResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The budget counts money, not tokens (issue 33), through a real headless agent ({@code agent run --hz 10}, the
 * default config, a scripted model on a socket, a fake clock): a healthy 200-step task whose provider caches the
 * prompt's stable prefix finishes under the default budget; a runaway is refused before the request that would cross
 * its budget, with no request after the stop. The tick cap is set out of the way: it is another rule's, under test
 * elsewhere.
 */
@Timeout(300)
class BudgetEndToEndTest {
    @TempDir Path dir;

    /** The model's usage as a provider that caches prompts reports it: the prefix shared with the previous request. */
    static final class PromptCache {
        private final AtomicReference<String> previous = new AtomicReference<>("");
        private final boolean reported;

        /** @param reported whether the server says what it read from its cache (false: usage without a word of it) */
        PromptCache(boolean reported) {
            this.reported = reported;
        }

        /**
         * A streamed reply whose usage counts 4 characters a token, and as cached the prefix this request shares with
         * the one before it, in whole blocks of 128 tokens from 1,024 on (as OpenAI's cache reports it).
         */
        MockResponse reply(Call call, String text) {
            String messages = call.body().path("messages").toString();
            String before = previous.getAndSet(messages);
            int shared = 0;
            int max = Math.min(before.length(), messages.length());
            while (shared < max && before.charAt(shared) == messages.charAt(shared)) shared++;
            int prompt = call.body().toString().length() / 4;
            int cached = shared / 4 >= 1_024 ? Math.min(prompt, shared / 4 / 128 * 128) : 0;
            return FakeOpenAiServer.streamedResponse(text, prompt, text.length() / 4 + 1, reported ? cached : -1);
        }
    }

    /** A task of {@code count} steps, each writing a new file and reading it back; then the answer. */
    static Model steps(int count, IntFunction<String> thought, PromptCache cache) {
        return call -> {
            int n = call.n();
            if (n > count) return cache.reply(call, reply("All steps done.", say("The " + count + " steps are done.")));
            return cache.reply(call, reply(thought.apply(n), fileWrite("step-" + n + ".txt", "result of step " + n),
                    fileRead("step-" + n + ".txt")));
        };
    }

    private long counter(String column) {
        return Long.parseLong(new SqlFile(dir.resolve("agent.db")).rows("SELECT " + column + " FROM safety_counters")
                .get(0));
    }

    private long sum(String sql) {
        return Long.parseLong(new SqlFile(dir.resolve("agent.db")).rows(sql).get(0));
    }

    /**
     * With no cache reported, the dearest case (the discount of a cached prompt is tested per provider in {@code
     * ProvidersWiredTest}): the whole default config, the task cap and the rules on the ledger included.
     */
    @Test
    void a_healthy_200_step_task_finishes_under_the_default_budget_with_no_cache_reported() throws Exception {
        SelfControlScenario s = new SelfControlScenario("200 steps", true, "201 calls", 0, 201, "ACTIVE",
                Map.of(), "Do the two hundred steps.", Healthy.UNTIL_IDLE, false, none(),
                steps(200, n -> "Step " + n + " of 200.", new PromptCache(false)));
        SelfControlRun.Outcome o = SelfControlRun.run(s, dir);

        long budget = AgentConfig.defaults().safety().tokenBudget();
        long spent = counter("task_tokens");
        String figures = "spent " + spent + " of " + budget + "; prompts "
                + sum("SELECT sum(prompt_tokens) FROM llm_calls WHERE purpose = 'main'") + ", cached "
                + sum("SELECT sum(cached_tokens) FROM llm_calls WHERE purpose = 'main'") + ", largest "
                + sum("SELECT max(prompt_tokens) FROM llm_calls WHERE purpose = 'main'") + "; " + o;
        assertThat(o.calls()).as(figures).isEqualTo(201);
        assertThat(o.state()).as(figures).isEqualTo("ACTIVE");
        assertThat(o.audit()).as(figures).isEmpty();
        assertThat(spent).as(figures).isLessThan(budget);
    }

    @Test
    void a_runaway_is_refused_before_the_request_that_would_cross_its_budget_and_none_follows() throws Exception {
        SelfControlScenario s = new SelfControlScenario("a runaway of new steps", false, "budget: 60,000", 0, 0,
                "STOPPED(budget)", Map.of("safety.tick_cap", "1000", "safety.token_budget", "60000"), "Do the steps.",
                Healthy.UNTIL_IDLE, false, none(), steps(1_000, n -> "Step " + n + " is done, on to the next.",
                        new PromptCache(false)));
        SelfControlRun.Outcome o = SelfControlRun.run(s, dir);
        String why = "spent " + counter("task_tokens") + "; " + o;

        assertThat(o.state()).as(why).isEqualTo("STOPPED(budget)");
        assertThat(o.calls()).as("no request after the stop: " + why).isEqualTo(o.stopCall());
        assertThat(o.afterStop()).isZero();
        assertThat(counter("task_tokens")).as("never over the budget: " + why).isLessThanOrEqualTo(60_000);
        assertThat(o.audit()).containsExactly("budget STOPPED(budget)");
        assertThat(o.alertsHeard()).singleElement().asString()
                .startsWith("STOPPED(budget): token budget: the next call would cross it: ")
                .endsWith(" > 60,000 tokens in this task (safety.token_budget)");
        assertThat(o.statusExit()).isEqualTo(ExitCodes.STOPPED);
        assertThat(o.runExit()).isEqualTo(ExitCodes.STOPPED);
    }
}
