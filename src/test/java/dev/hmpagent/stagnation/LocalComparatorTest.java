package dev.hmpagent.stagnation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hmpagent.llm.Usage;
import dev.hmpagent.stagnation.Comparison.Verdict;
import org.junit.jupiter.api.Test;

class LocalComparatorTest {
    final LocalComparator local = new LocalComparator(0.3);

    @Test
    void a_chain_of_replies_compares_as_each_pair_would_alone() {
        java.util.List<String> replies = java.util.List.of("- check the logs\n- restart the upload",
                "- check the logs\n- restart the upload with a smaller chunk", "The upload went through.",
                "The upload went through.", "- check the logs\n- restart the upload");
        for (int i = 1; i < replies.size(); i++) {
            Comparison chained = local.compare(replies.get(i - 1), replies.get(i));
            Comparison alone = new LocalComparator(0.3).compare(replies.get(i - 1), replies.get(i));
            assertThat(chained).as("pair " + i).isEqualTo(alone);
        }
        assertThat(local.compare("The upload went through.", "- check the logs\n- restart the upload"))
                .as("out of order: the kept reading is not this reply's")
                .isEqualTo(new LocalComparator(0.3).compare("The upload went through.",
                        "- check the logs\n- restart the upload"));
    }

    @Test
    void the_same_reply_after_normalising_is_identical_same_and_zero() {
        Comparison c = local.compare("I should  check the logs.", "i should check the ＬＯＧＳ!");
        assertThat(c.identical()).isTrue();
        assertThat(c.novelty()).isZero();
        assertThat(c.verdict()).isEqualTo(Verdict.SAME);
        assertThat(c.method()).isEqualTo("local");
        assertThat(c.usage()).isEqualTo(new Usage(0, 0, false));
        assertThat(c.reflection()).isEmpty();
    }

    @Test
    void one_word_changed_in_a_two_kilobyte_reply_is_nearly_no_novelty() {
        Comparison c = local.compare(Replies.BACKUP, Replies.BACKUP_ONE_WORD);
        assertThat(c.identical()).isFalse();
        assertThat(c.novelty()).isGreaterThan(0.0).isLessThan(0.1);   // measured 0.02
        assertThat(c.verdict()).isEqualTo(Verdict.SAME);
        assertThat(c.refinedIdeas()).singleElement().asString().contains("the easiest fix");
        assertThat(c.newIdeas()).isEmpty();
        assertThat(c.discardedIdeas()).isEmpty();
    }

    @Test
    void a_paraphrase_of_the_same_ideas_has_medium_novelty() {
        // measured 0.46 with the same commands, 0.47 with the commands reworded too; shingles alone say 0.80-0.90
        assertThat(local.compare(Replies.BACKUP, Replies.BACKUP_PARAPHRASED).novelty()).isBetween(0.35, 0.6);
        assertThat(local.compare(Replies.BACKUP, Replies.BACKUP_PARAPHRASED_COMMANDS).novelty()).isBetween(0.35, 0.6);
    }

    @Test
    void a_new_step_on_the_same_topic_is_highly_novel() {
        // measured 0.89 after the step before it and 0.84 after the first reply
        assertThat(local.compare(Replies.BACKUP_NEXT_STEP, Replies.BACKUP_RESTORE_TEST).novelty()).isGreaterThan(0.8);
        assertThat(local.compare(Replies.BACKUP, Replies.BACKUP_RESTORE_TEST).novelty()).isGreaterThan(0.8);
        // measured 0.80: it recaps what the listing showed, so it shares the topic's words with the reply before
        assertThat(local.compare(Replies.BACKUP, Replies.BACKUP_NEXT_STEP).novelty()).isGreaterThan(0.75);
        assertThat(local.compare(Replies.BACKUP, Replies.UNRELATED).novelty()).isGreaterThan(0.95);
    }

    @Test
    void the_verdict_is_same_below_the_threshold_and_new_from_it() {
        assertThat(new LocalComparator(0.3).compare(Replies.BACKUP, Replies.BACKUP_PARAPHRASED).verdict())
                .isEqualTo(Verdict.NEW);
        assertThat(new LocalComparator(0.6).compare(Replies.BACKUP, Replies.BACKUP_PARAPHRASED).verdict())
                .isEqualTo(Verdict.SAME);
        assertThatThrownBy(() -> new LocalComparator(1.5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sentences_are_kept_refined_new_or_discarded() {
        Comparison c = local.compare(
                "I read the log. The backup failed because of a permission error. I will check the disk.",
                "I read the log!\nThe backup failed with a permission error on the directory. I will restart the server.");
        assertThat(c.newIdeas()).containsExactly("I will restart the server.");
        assertThat(c.refinedIdeas()).containsExactly("The backup failed with a permission error on the directory.");
        assertThat(c.discardedIdeas()).containsExactly("I will check the disk.");
        assertThat(c.reflection()).isEqualTo("new ideas: I will restart the server."
                + " | refined ideas: The backup failed with a permission error on the directory."
                + " | discarded ideas: I will check the disk.");
    }

    @Test
    void a_command_line_is_one_unit_and_the_block_markers_and_fences_are_none() {
        Comparison c = local.compare("Checking.\n# Commands:\n```json\n[{\"type\": \"shell\", \"args\": {\"cmd\": \"ls\"}}]\n```",
                "Checking.\n# Commands:\n```json\n[{\"type\": \"shell\", \"args\": {\"cmd\": \"cat notes.txt. Then wc\"}}]\n```");
        assertThat(c.newIdeas()).containsExactly("[{\"type\": \"shell\", \"args\": {\"cmd\": \"cat notes.txt. Then wc\"}}]");
        assertThat(c.discardedIdeas()).containsExactly("[{\"type\": \"shell\", \"args\": {\"cmd\": \"ls\"}}]");
    }

    @Test
    void at_most_five_items_a_list_each_on_one_line_and_clipped_to_120_characters() {
        String longSentence = "The migration of the archive " + "and its very many old folders ".repeat(10) + "is slow.";
        StringBuilder current = new StringBuilder(longSentence);
        for (int i = 0; i < 9; i++) current.append("\nTopic ").append((char) ('a' + i)).append(" matters.");
        Comparison c = local.compare("Nothing yet.", current.toString());
        assertThat(c.newIdeas()).hasSize(5);
        assertThat(c.newIdeas().get(0)).hasSizeBetween(110, 120).endsWith("…").startsWith("The migration of the archive and");
        assertThat(c.newIdeas().get(1)).isEqualTo("Topic a matters.");
    }

    @Test
    void a_list_of_many_similar_items_is_compared_without_trouble() {
        StringBuilder previous = new StringBuilder("Here are the files:\n");
        for (int i = 0; i < 300; i++) previous.append("- report-").append(1000 + i).append(".txt is ready to send\n");
        String current = previous.toString().replace("report-1007.txt is ready", "report-1007.txt is late");

        Comparison same = local.compare(previous.toString(), current);
        assertThat(same.novelty()).isLessThan(0.1);
        assertThat(same.verdict()).isEqualTo(Verdict.SAME);
        assertThat(same.refinedIdeas()).containsExactly("report-1007.txt is late to send");
        assertThat(same.discardedIdeas()).isEmpty();

        Comparison shorter = local.compare(previous.toString(), "Here are the files:\n- report-1000.txt is ready to send");
        assertThat(shorter.discardedIdeas()).hasSize(5);
        assertThat(shorter.newIdeas()).isEmpty();
    }

    @Test
    void russian_replies_are_compared_by_their_content_words() {
        Comparison c = local.compare("Я проверю журнал резервного копирования. Потом напишу пользователю.",
                "Проверяю журнал резервного копирования. Затем спрошу пользователя про диск.");
        assertThat(c.identical()).isFalse();
        assertThat(c.novelty()).isBetween(0.3, 0.8);
        assertThat(c.refinedIdeas()).containsExactly("Проверяю журнал резервного копирования.");
    }
}
