package dev.hmpagent.stagnation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WordsTest {

    @Test
    void normalising_folds_case_spacing_punctuation_and_compatibility_forms() {
        assertThat(Words.normalised("  The LOGS,  again!\tＦｕｌｌ-width ﬁle "))
                .containsExactly("the", "logs", "again", "full", "width", "file");
        assertThat(Words.normalised(" ... ")).isEmpty();
    }

    @Test
    void a_stem_matches_inflections_of_one_word() {
        assertThat(Words.stem("loops")).isEqualTo(Words.stem("looping")).isEqualTo(Words.stem("looped"));
        assertThat(Words.stem("directory")).isEqualTo("direct");
        assertThat(Words.stem("проверить")).isEqualTo(Words.stem("проверяю")).isEqualTo("провер");
        assertThat(Words.stem("class")).isEqualTo("class");
    }

    @Test
    void content_stems_leave_out_english_and_russian_stopwords() {
        assertThat(Words.contentStems(Words.normalised("I will check the logs and then I will read them")))
                .isEqualTo(Set.of("check", "log", "read"));
        assertThat(Words.contentStems(Words.normalised("Я это уже проверил, и логи тоже")))
                .isEqualTo(Set.of("провер", "логи"));
    }

    @Test
    void jaccard_is_shared_over_all_and_zero_for_an_empty_side() {
        assertThat(Words.jaccard(Set.of("a", "b", "c"), Set.of("b", "c", "d"))).isEqualTo(0.5);
        assertThat(Words.jaccard(Set.of(), Set.of("a"))).isZero();
        assertThat(Words.shingles(List.of("a", "b"))).isEqualTo(Set.of("a", "b"));
        assertThat(Words.shingles(List.of("a", "b", "c", "d"))).isEqualTo(Set.of("a b c", "b c d"));
    }
}
