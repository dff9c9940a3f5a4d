package dev.hmpagent.stagnation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NoveltyScorerTest {
    final NoveltyScorer scorer = new NoveltyScorer();

    @Test
    void the_same_text_after_normalising_is_identical_with_novelty_zero() {
        Novelty n = scorer.compare("I should  check the logs.", "i should check the LOGS!");
        assertThat(n.identical()).isTrue();
        assertThat(n.score()).isZero();
    }

    @Test
    void unrelated_text_is_fully_new() {
        Novelty n = scorer.compare("The sky is blue over the sea today", "Quarterly revenue grew in every region");
        assertThat(n.identical()).isFalse();
        assertThat(n.score()).isEqualTo(1.0);
    }

    @Test
    void a_small_edit_scores_between_the_two() {
        String a = "I will read the diary, then write a summary of the meeting and send it to the user.";
        String b = "I will read the diary, then write a short summary of the meeting and send it to the user.";
        Novelty n = scorer.compare(a, b);
        assertThat(n.identical()).isFalse();
        assertThat(n.score()).isBetween(0.05, 0.6);
    }

    @Test
    void short_and_non_latin_replies_are_compared_by_words() {
        assertThat(scorer.compare("Привет мир", "привет, мир").identical()).isTrue();
        assertThat(scorer.compare("да", "нет").score()).isEqualTo(1.0);
    }
}
