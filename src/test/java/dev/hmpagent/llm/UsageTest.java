package dev.hmpagent.llm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What one call counts toward the token budgets: cached prompt tokens at a tenth, cache writes at 1.25, rounded up. */
class UsageTest {
    @Test
    void without_a_cache_the_budget_counts_every_token() {
        assertThat(new Usage(3_000, 120, false).budgetTokens()).isEqualTo(3_120);
    }

    @Test
    void cached_prompt_tokens_count_a_tenth_rounded_up() {
        assertThat(new Usage(3_000, 120, false, 2_500).budgetTokens()).isEqualTo(500 + 250 + 120);
        assertThat(new Usage(3_000, 120, false, 2_501).budgetTokens()).isEqualTo(499 + 251 + 120);
        assertThat(new Usage(10, 0, false, 10).budgetTokens()).isEqualTo(1);
    }

    @Test
    void prompt_tokens_written_to_the_cache_count_one_and_a_quarter_rounded_up() {
        assertThat(new Usage(3_000, 120, false, 1_000, 1_600).budgetTokens()).isEqualTo(400 + 100 + 2_000 + 120);
        assertThat(new Usage(3, 0, false, 0, 3).budgetTokens()).isEqualTo(4);
    }
}
