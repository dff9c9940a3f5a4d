package dev.hmpagent.stagnation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.StagnationSection;
import dev.hmpagent.llm.RetryableLlmException;
import dev.hmpagent.llm.Usage;
import dev.hmpagent.stagnation.Comparison.Verdict;
import dev.hmpagent.testing.FakeLlmClient;
import java.util.List;
import org.junit.jupiter.api.Test;

class HybridComparatorTest {
    final FakeLlmClient fake = new FakeLlmClient();

    {
        fake.judgeComparisons = false;   // these tests script the comparison answers themselves
    }
    final LocalComparator local = new LocalComparator(0.3);
    final HybridComparator hybrid = new HybridComparator(local, new LlmComparator(fake, 300, 0.3, local), 0.15, 0.8);

    @Test
    void a_near_identical_reply_is_judged_locally_without_a_call() {
        Comparison c = hybrid.compare(Replies.BACKUP, Replies.BACKUP_ONE_WORD);
        assertThat(fake.requests).isEmpty();
        assertThat(c.novelty()).isCloseTo(0.0, org.assertj.core.data.Offset.offset(0.05));
        assertThat(c.verdict()).isEqualTo(Verdict.SAME);
        assertThat(c.method()).isEqualTo("hybrid:local");
        assertThat(c.usage()).isEqualTo(new Usage(0, 0, false));
    }

    @Test
    void an_identical_reply_is_judged_locally_without_a_call() {
        Comparison c = hybrid.compare(Replies.BACKUP, Replies.BACKUP);
        assertThat(fake.requests).isEmpty();
        assertThat(c.identical()).isTrue();
        assertThat(c.method()).isEqualTo("hybrid:local");
    }

    @Test
    void a_clearly_new_reply_is_judged_locally_without_a_call() {
        Comparison c = hybrid.compare(Replies.BACKUP_NEXT_STEP, Replies.BACKUP_RESTORE_TEST);
        assertThat(fake.requests).isEmpty();
        assertThat(c.verdict()).isEqualTo(Verdict.NEW);
        assertThat(c.novelty()).isGreaterThan(0.8);
        assertThat(c.method()).isEqualTo("hybrid:local");
        assertThat(c.newIdeas()).isNotEmpty();
    }

    @Test
    void a_paraphrase_in_the_band_asks_the_model_once_and_takes_its_verdict_and_lists() {
        fake.reply("{\"new_thoughts\": \"no\", \"novelty\": 0.1, \"refined_ideas\": [\"the same plan, reworded\"]}");
        Comparison c = hybrid.compare(Replies.BACKUP, Replies.BACKUP_PARAPHRASED);

        assertThat(fake.requests).hasSize(1);
        assertThat(fake.userPrompt(0)).contains(Replies.BACKUP_PARAPHRASED);
        assertThat(c.verdict()).as("the local verdict was NEW").isEqualTo(Verdict.SAME);
        assertThat(c.novelty()).isEqualTo(0.1);
        assertThat(c.refinedIdeas()).containsExactly("the same plan, reworded");
        assertThat(c.newIdeas()).isEmpty();
        assertThat(c.method()).isEqualTo("hybrid:llm");
        assertThat(c.usage().total()).isPositive();
    }

    @Test
    void with_the_default_band_every_step_of_a_paraphrase_loop_is_put_to_the_judge() {
        StagnationSection s = AgentConfig.defaults().stagnation();
        HybridComparator band = new HybridComparator(local, new LlmComparator(fake, 300, 0.3, local), s.nearIdentical(),
                s.ambiguousHigh());
        List<String> loop = Replies.PARAPHRASE_LOOP;
        int aboveOldBand = 0;
        for (int i = 1; i < loop.size(); i++) {
            double novelty = local.compare(loop.get(i - 1), loop.get(i)).novelty();
            if (novelty > 0.8) aboveOldBand++;
            fake.reply("{\"new_thoughts\": \"no\", \"novelty\": 0.05}");
            Comparison c = band.compare(loop.get(i - 1), loop.get(i));
            assertThat(c.method()).as("pair %d, local novelty %.2f", i, novelty).isEqualTo("hybrid:llm");
            assertThat(c.verdict()).isEqualTo(Verdict.SAME);
        }
        assertThat(aboveOldBand).as("pairs the old band (up to 0.8) counted new without asking").isEqualTo(4);
        assertThat(fake.requests).hasSize(loop.size() - 1);
        assertThat(band.compare(Replies.BACKUP, Replies.UNRELATED).method()).as("unrelated text costs no call")
                .isEqualTo("hybrid:local");
        assertThat(fake.requests).hasSize(loop.size() - 1);
    }

    @Test
    void a_reply_in_the_band_that_asks_for_a_new_command_is_new_without_a_call() {
        Comparison c = hybrid.compare(Replies.BACKUP, Replies.BACKUP_PARAPHRASED, true);

        assertThat(fake.requests).isEmpty();
        assertThat(c.verdict()).isEqualTo(Verdict.NEW);
        assertThat(c.method()).isEqualTo("hybrid:local");
        assertThat(hybrid.compare(Replies.BACKUP, Replies.BACKUP, true).identical()).as("identical stays identical")
                .isTrue();
    }

    @Test
    void a_model_that_gives_no_lists_leaves_the_local_ones() {
        fake.reply("{\"new_thoughts\": \"yes\"}");
        Comparison c = hybrid.compare(Replies.BACKUP, Replies.BACKUP_PARAPHRASED);
        Comparison here = local.compare(Replies.BACKUP, Replies.BACKUP_PARAPHRASED);

        assertThat(c.verdict()).isEqualTo(Verdict.NEW);
        assertThat(c.novelty()).isEqualTo(0.9);
        assertThat(c.newIdeas()).isEqualTo(here.newIdeas());
        assertThat(c.refinedIdeas()).isEqualTo(here.refinedIdeas()).isNotEmpty();
        assertThat(c.discardedIdeas()).isEqualTo(here.discardedIdeas());
    }

    @Test
    void an_unreadable_or_failed_answer_keeps_the_local_verdict_and_novelty() {
        fake.reply("no idea").fail(new RetryableLlmException("timeout", "http://fake/v1 did not answer", null, null));
        Comparison here = local.compare(Replies.BACKUP, Replies.BACKUP_PARAPHRASED);

        Comparison garbage = hybrid.compare(Replies.BACKUP, Replies.BACKUP_PARAPHRASED);
        assertThat(garbage.verdict()).isEqualTo(here.verdict());
        assertThat(garbage.novelty()).isEqualTo(here.novelty());
        assertThat(garbage.method()).isEqualTo("hybrid:llm");
        assertThat(garbage.usage().total()).isPositive();

        Comparison failed = hybrid.compare(Replies.BACKUP, Replies.BACKUP_PARAPHRASED);
        assertThat(failed.verdict()).isEqualTo(here.verdict());
        assertThat(failed.usage()).isEqualTo(new Usage(0, 0, false));
        assertThat(fake.requests).hasSize(2);
    }

    @Test
    void a_cancel_reaches_the_call_in_flight() {
        fake.replyAfter(hybrid::cancel, "{\"new_thoughts\": \"no\", \"novelty\": 0.1}");
        Comparison c = hybrid.compare(Replies.BACKUP, Replies.BACKUP_PARAPHRASED);
        assertThat(c.verdict()).as("the local one: the answer came after the cancel").isEqualTo(Verdict.NEW);
        assertThat(c.novelty()).isEqualTo(local.compare(Replies.BACKUP, Replies.BACKUP_PARAPHRASED).novelty());
    }

    @Test
    void bands_out_of_order_are_refused() {
        assertThatThrownBy(() -> new HybridComparator(local, new LlmComparator(fake, 300, 0.3, local), 0.8, 0.2))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
