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
    void the_hand_written_scan_splits_exactly_where_the_old_regular_expression_did() {
        for (String text : List.of("", "  a  ", "It's 2½ o'clock — déjà vu", "Ⅻ chapters, x² and ٣ Arabic-Indic",
                "combining: e\u0301 and a\u0308b", "emoji 🙂 between", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 math letters", "tabs\tand\nlines",
                "İstanbul ΣΟΦΟΣ straße", "snake_case and kebab-case, dots.in.names")) {
            String n = java.text.Normalizer.normalize(text, java.text.Normalizer.Form.NFKC).toLowerCase(java.util.Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
            List<String> regex = n.isEmpty() ? List.of() : List.of(n.split(" "));
            assertThat(Words.normalised(text)).as(text).isEqualTo(regex);
        }
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
    }

    @Test
    void shingle_jaccard_compares_runs_of_three_words_or_the_words_of_a_short_reply() {
        assertThat(Words.shingleJaccard(List.of("a", "b", "c", "d"), List.of("a", "b", "c", "e"))).isEqualTo(1.0 / 3);
        assertThat(Words.shingleJaccard(List.of("c", "b", "a"), List.of("a", "b", "c"))).as("order counts").isZero();
        assertThat(Words.shingleJaccard(List.of("a", "b"), List.of("b", "a"))).isEqualTo(1.0);
        assertThat(Words.shingleJaccard(List.of(), List.of("a"))).isZero();
    }
}
