package dev.hmpagent.stagnation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.llm.FatalLlmException;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.Message;
import dev.hmpagent.llm.RetryableLlmException;
import dev.hmpagent.llm.TokenEstimator;
import dev.hmpagent.llm.Usage;
import dev.hmpagent.stagnation.Comparison.Verdict;
import dev.hmpagent.testing.FakeLlmClient;
import org.junit.jupiter.api.Test;

class LlmComparatorTest {
    static final String ANSWER = """
            ```json
            {"new_thoughts": "no", "novelty": 0.15, "new_ideas": [],
             "refined_ideas": ["confirm the owner of /var/backups/db"], "discarded_ideas": []}
            ```""";

    final FakeLlmClient fake = new FakeLlmClient();

    {
        fake.judgeComparisons = false;   // these tests script the comparison answers themselves
    }
    final LocalComparator local = new LocalComparator(0.3);
    final LlmComparator comparator = new LlmComparator(fake, 300, 0.3, local);

    Usage usageOf(String answer) {
        return new Usage(TokenEstimator.estimate(fake.requests.get(0).messages()), TokenEstimator.estimate(answer), true);
    }

    @Test
    void sends_one_request_at_temperature_zero_with_both_replies_and_nothing_of_the_agents_context() {
        fake.reply(ANSWER);
        comparator.compare(Replies.BACKUP, Replies.BACKUP_PARAPHRASED);

        assertThat(fake.requests).hasSize(1);
        LlmRequest request = fake.requests.get(0);
        assertThat(request.temperature()).isZero();
        assertThat(request.maxTokens()).isEqualTo(300);
        assertThat(request.messages()).extracting(Message::role).containsExactly(Message.Role.SYSTEM, Message.Role.USER);
        assertThat(fake.systemPrompt(0)).contains("compare two consecutive replies of an autonomous agent");
        String user = fake.userPrompt(0);
        assertThat(user).contains(Replies.BACKUP).contains(Replies.BACKUP_PARAPHRASED)
                .contains("\"new_thoughts\"", "\"novelty\"", "\"new_ideas\"", "\"refined_ideas\"", "\"discarded_ideas\"");
        assertThat(user.indexOf(Replies.BACKUP)).as("previous first").isLessThan(user.indexOf(Replies.BACKUP_PARAPHRASED));
        assertThat(user + fake.systemPrompt(0)).doesNotContain("Context 0").doesNotContain("Context 1");
    }

    @Test
    void the_shared_form_asks_after_the_main_request_and_its_reply_so_the_servers_prompt_cache_is_kept() {
        LlmComparator shared = new LlmComparator(fake, 300, 0.3, local, LlmComparator.Form.SHARED);
        java.util.List<Message> main = java.util.List.of(Message.system("Context 0: who you are"),
                Message.user("Context 1 and the rest"));
        fake.reply(ANSWER).reply(ANSWER);
        shared.answered(main, Replies.BACKUP_PARAPHRASED);
        Comparison c = shared.compare(Replies.BACKUP, Replies.BACKUP_PARAPHRASED);

        java.util.List<Message> sent = fake.requests.get(0).messages();
        assertThat(sent.subList(0, 2)).as("the main request first, unchanged").isEqualTo(main);
        assertThat(sent.get(2)).isEqualTo(Message.assistant(Replies.BACKUP_PARAPHRASED));
        assertThat(sent.get(3).role()).isEqualTo(Message.Role.USER);
        assertThat(sent.get(3).content()).startsWith(LlmComparator.SYSTEM_PROMPT).contains(Replies.BACKUP)
                .contains("\"novelty\"");
        assertThat(LlmComparator.isComparison(sent)).isTrue();
        assertThat(LlmComparator.isComparison(main)).isFalse();
        assertThat(c.novelty()).isEqualTo(0.15);

        // a reply the main request did not get is asked about alone
        shared.compare(Replies.BACKUP, Replies.UNRELATED);
        assertThat(fake.requests.get(1).messages()).extracting(Message::role)
                .containsExactly(Message.Role.SYSTEM, Message.Role.USER);
    }

    @Test
    void the_short_form_ignores_the_main_request() {
        fake.reply(ANSWER);
        comparator.answered(java.util.List.of(Message.system("Context 0")), Replies.BACKUP_PARAPHRASED);
        comparator.compare(Replies.BACKUP, Replies.BACKUP_PARAPHRASED);
        assertThat(fake.requests.get(0).messages()).hasSize(2);
        assertThat(fake.systemPrompt(0)).startsWith(LlmComparator.SYSTEM_PROMPT);
    }

    @Test
    void the_answer_gives_the_verdict_novelty_and_lists_and_the_call_its_usage() {
        fake.reply(ANSWER);
        Comparison c = comparator.compare(Replies.BACKUP, Replies.BACKUP_PARAPHRASED);

        assertThat(c.verdict()).isEqualTo(Verdict.SAME);
        assertThat(c.novelty()).isEqualTo(0.15);
        assertThat(c.refinedIdeas()).containsExactly("confirm the owner of /var/backups/db");
        assertThat(c.newIdeas()).isEmpty();
        assertThat(c.method()).isEqualTo("llm");
        assertThat(c.identical()).isFalse();
        assertThat(c.usage()).isEqualTo(usageOf(ANSWER));
        assertThat(c.reflection()).isEqualTo("refined ideas: confirm the owner of /var/backups/db");
    }

    @Test
    void a_garbage_answer_is_unknown_with_the_local_novelty_and_lists() {
        fake.reply("I am sorry, I cannot compare these.");
        Comparison c = comparator.compare(Replies.BACKUP, Replies.BACKUP_NEXT_STEP);
        Comparison here = local.compare(Replies.BACKUP, Replies.BACKUP_NEXT_STEP);

        assertThat(c.verdict()).isEqualTo(Verdict.UNKNOWN);
        assertThat(c.novelty()).isEqualTo(here.novelty());
        assertThat(c.newIdeas()).isEqualTo(here.newIdeas()).isNotEmpty();
        assertThat(c.discardedIdeas()).isEqualTo(here.discardedIdeas());
        assertThat(c.method()).isEqualTo("llm");
        assertThat(c.usage()).isEqualTo(usageOf("I am sorry, I cannot compare these."));
    }

    @Test
    void identical_replies_still_cost_a_call_in_this_mode_but_stay_identical_whatever_the_model_says() {
        fake.reply("{\"new_thoughts\": \"yes\", \"novelty\": 0.9, \"new_ideas\": [\"something\"]}");
        Comparison c = comparator.compare(Replies.BACKUP, Replies.BACKUP.toUpperCase(java.util.Locale.ROOT) + "  ");
        assertThat(fake.requests).hasSize(1);
        assertThat(c.identical()).as("judged locally, never from the model's score").isTrue();
        assertThat(c.verdict()).isEqualTo(Verdict.SAME);
        assertThat(c.novelty()).isZero();
        assertThat(c.newIdeas()).isEmpty();
        assertThat(c.method()).isEqualTo("llm");
        assertThat(c.usage().total()).isPositive();
    }

    @Test
    void a_failed_call_is_unknown_with_the_local_view_and_no_usage() {
        fake.fail(new RetryableLlmException("timeout", "http://fake/v1 did not answer in 30 s", null, null))
                .fail(new FatalLlmException("http_401", "http://fake/v1 refused the key", null));
        Comparison here = local.compare(Replies.BACKUP, Replies.BACKUP_NEXT_STEP);

        for (int i = 0; i < 2; i++) {
            Comparison c = comparator.compare(Replies.BACKUP, Replies.BACKUP_NEXT_STEP);
            assertThat(c.verdict()).isEqualTo(Verdict.UNKNOWN);
            assertThat(c.novelty()).isEqualTo(here.novelty());
            assertThat(c.newIdeas()).isEqualTo(here.newIdeas());
            assertThat(c.method()).isEqualTo("llm");
            assertThat(c.usage()).isEqualTo(new Usage(0, 0, false));
        }
        assertThat(fake.requests).hasSize(2);
    }

    @Test
    void an_interrupted_answer_is_unknown_with_the_usage_the_call_reported() {
        fake.interruptedReply("{\"new_thoughts\": \"n");
        Comparison c = comparator.compare(Replies.BACKUP, Replies.BACKUP_PARAPHRASED);
        assertThat(c.verdict()).isEqualTo(Verdict.UNKNOWN);
        assertThat(c.usage()).isEqualTo(usageOf("{\"new_thoughts\": \"n"));
    }

    @Test
    void a_cancel_during_the_call_discards_the_answer_even_when_the_client_finished_it() {
        fake.replyAfter(comparator::cancel, ANSWER);
        Comparison c = comparator.compare(Replies.BACKUP, Replies.BACKUP_PARAPHRASED);
        assertThat(c.verdict()).isEqualTo(Verdict.UNKNOWN);
        assertThat(c.usage()).isEqualTo(usageOf(ANSWER));
    }

    @Test
    void a_cancel_with_no_call_in_flight_does_not_touch_the_next_comparison() {
        comparator.cancel();
        fake.reply(ANSWER);
        assertThat(comparator.compare(Replies.BACKUP, Replies.BACKUP_PARAPHRASED).verdict()).isEqualTo(Verdict.SAME);
    }

    @Test
    void a_long_reply_is_clipped_to_its_start_and_end_so_its_commands_are_still_seen() {
        String longReply = "START of the thought. " + "Filler sentence about nothing in particular. ".repeat(300)
                + "\n# Commands:\n[{\"type\": \"shell\", \"args\": {\"cmd\": \"df -h\"}}]";
        fake.reply(ANSWER);
        comparator.compare(Replies.BACKUP, longReply);

        String user = fake.userPrompt(0);
        assertThat(user).contains("START of the thought.").contains("\"cmd\": \"df -h\"").contains("\n[…]\n");
        assertThat(user.length()).isLessThan(Replies.BACKUP.length() + LlmComparator.MAX_REPLY_CHARS + 1_500);
    }
}
