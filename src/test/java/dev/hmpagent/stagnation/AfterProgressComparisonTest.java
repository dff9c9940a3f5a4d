package dev.hmpagent.stagnation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.llm.Usage;
import dev.hmpagent.stagnation.Comparison.Verdict;
import dev.hmpagent.testing.FakeLlmClient;
import org.junit.jupiter.api.Test;

/** A reply after news from the world is compared without a judge call (issue 23); where a call was due it is new. */
class AfterProgressComparisonTest {
    final FakeLlmClient fake = new FakeLlmClient();

    {
        fake.judgeComparisons = false;   // any call would take a scripted reply: none is scripted, none may be made
    }
    final LocalComparator local = new LocalComparator(0.3);
    final LlmComparator llm = new LlmComparator(fake, 300, 0.3, local);
    final HybridComparator hybrid = new HybridComparator(local, llm, 0.15, 0.8);

    @Test
    void a_paraphrase_in_the_hybrid_band_is_new_without_a_call() {
        Comparison asked = local.compare(Replies.BACKUP, Replies.BACKUP_PARAPHRASED);
        assertThat(asked.novelty()).as("in the band: the model would be asked").isBetween(0.15, 0.8);

        Comparison c = hybrid.compareAfterProgress(Replies.BACKUP, Replies.BACKUP_PARAPHRASED);
        assertThat(fake.requests).isEmpty();
        assertThat(c.verdict()).isEqualTo(Verdict.NEW);
        assertThat(c.novelty()).isGreaterThanOrEqualTo(0.3);
        assertThat(c.method()).isEqualTo("hybrid:local");
        assertThat(c.usage()).isEqualTo(new Usage(0, 0, false));
    }

    @Test
    void a_near_identical_reply_keeps_its_low_local_score_in_hybrid() {
        Comparison c = hybrid.compareAfterProgress(Replies.BACKUP, Replies.BACKUP_ONE_WORD);
        assertThat(fake.requests).isEmpty();
        assertThat(c.verdict()).isEqualTo(Verdict.SAME);
        assertThat(c.novelty()).isLessThan(0.15);
    }

    @Test
    void the_llm_method_makes_no_call_and_counts_any_reply_but_an_identical_one_as_new() {
        Comparison c = llm.compareAfterProgress(Replies.BACKUP, Replies.BACKUP_ONE_WORD);
        Comparison same = llm.compareAfterProgress(Replies.BACKUP, Replies.BACKUP);

        assertThat(fake.requests).isEmpty();
        assertThat(c.verdict()).isEqualTo(Verdict.NEW);
        assertThat(c.novelty()).isEqualTo(0.3);
        assertThat(c.method()).isEqualTo("local");
        assertThat(same.identical()).isTrue();
        assertThat(same.novelty()).isZero();
    }

    @Test
    void the_local_method_scores_as_always() {
        assertThat(local.compareAfterProgress(Replies.BACKUP, Replies.BACKUP_ONE_WORD))
                .isEqualTo(local.compare(Replies.BACKUP, Replies.BACKUP_ONE_WORD));
    }
}
