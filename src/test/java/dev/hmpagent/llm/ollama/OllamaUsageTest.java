package dev.hmpagent.llm.ollama;

import dev.hmpagent.llm.Message;
import dev.hmpagent.llm.TokenEstimator;
import dev.hmpagent.llm.Usage;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.hmpagent.llm.ollama.ServerCounts.NOT_SENT;
import static org.assertj.core.api.Assertions.assertThat;

/** How the counts of a final object become a {@link Usage}; see {@link OllamaUsage} for why. */
class OllamaUsageTest {
    /** 4,000 characters of stable prefix and a short question: an estimate of about 1,000 tokens. */
    private static final List<Message> PROMPT = List.of(Message.system("s".repeat(4000)), Message.user("and now?"));
    private static final int ESTIMATE = TokenEstimator.estimate(PROMPT);

    private static Usage usage(int promptEvalCount, int evalCount, int cachedCount) {
        return OllamaUsage.of(PROMPT, "an answer", new ServerCounts(promptEvalCount, evalCount, cachedCount));
    }

    @Test
    void the_estimate_is_about_a_thousand_tokens() {
        assertThat(ESTIMATE).isBetween(1000, 1020);
    }

    @Test
    void a_reply_cancelled_before_anything_arrived_counts_its_prompt_and_nothing_out() {
        assertThat(OllamaUsage.of(PROMPT, "", null, true)).isEqualTo(new Usage(ESTIMATE, 0, true));
        assertThat(OllamaUsage.of(PROMPT, "", null, false)).as("an empty reply that ended cost its end token")
                .isEqualTo(new Usage(ESTIMATE, 1, true));
    }

    @Test
    void a_server_that_reports_its_cache_is_taken_at_its_word() {
        assertThat(usage(1012, 30, 990)).isEqualTo(new Usage(1012, 30, false, 990));
        assertThat(usage(1012, 30, 0)).isEqualTo(new Usage(1012, 30, false, 0));
        assertThat(usage(40, 30, 16)).as("even far below the estimate (a prompt cut to num_ctx)")
                .isEqualTo(new Usage(40, 30, false, 16));
        assertThat(usage(100, 30, 500)).as("never more cached than prompt").isEqualTo(new Usage(100, 30, false, 100));
    }

    @Test
    void a_whole_prompt_count_without_a_cache_count_is_taken_with_nothing_known_cached() {
        assertThat(usage(ESTIMATE, 30, NOT_SENT)).isEqualTo(new Usage(ESTIMATE, 30, false));
        assertThat(usage(1400, 30, NOT_SENT)).as("above the estimate").isEqualTo(new Usage(1400, 30, false));
        assertThat(usage((ESTIMATE + 1) / 2, 30, NOT_SENT)).as("down to half the estimate: a tokenizer's difference")
                .isEqualTo(new Usage((ESTIMATE + 1) / 2, 30, false));
    }

    @Test
    void a_prompt_count_below_half_the_estimate_is_the_uncached_remainder_of_an_older_server() {
        assertThat(usage(12, 30, NOT_SENT)).isEqualTo(new Usage(ESTIMATE, 30, true, ESTIMATE - 12));
    }

    @Test
    void a_missing_prompt_count_is_a_whole_prompt_from_the_cache() {
        assertThat(usage(NOT_SENT, 30, NOT_SENT)).isEqualTo(new Usage(ESTIMATE, 30, true, ESTIMATE));
    }

    @Test
    void a_missing_completion_count_is_estimated_and_zero_is_kept_only_for_an_empty_reply() {
        int reply = TokenEstimator.estimate("an answer");
        assertThat(usage(1012, NOT_SENT, NOT_SENT)).isEqualTo(new Usage(1012, reply, true));
        assertThat(usage(1012, 0, NOT_SENT)).isEqualTo(new Usage(1012, reply, true));
        assertThat(OllamaUsage.of(PROMPT, "", new ServerCounts(1012, 0, NOT_SENT))).isEqualTo(new Usage(1012, 0, false));
    }

    @Test
    void no_counts_at_all_are_estimated_and_never_zero() {
        assertThat(OllamaUsage.of(PROMPT, "", null)).isEqualTo(new Usage(ESTIMATE, 1, true));
        assertThat(OllamaUsage.of(PROMPT, "an answer", null))
                .isEqualTo(new Usage(ESTIMATE, TokenEstimator.estimate("an answer"), true));
    }
}
