package dev.hmpagent.stagnation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hmpagent.llm.Usage;
import dev.hmpagent.stagnation.Comparison.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ComparisonTest {

    static Comparison withIdeas(List<String> added, List<String> refined, List<String> discarded) {
        return new Comparison(Verdict.NEW, 0.5, added, refined, discarded, "local", new Usage(0, 0, false), false);
    }

    @Test
    void the_reflection_names_each_non_empty_list_and_joins_them_with_a_bar() {
        assertThat(withIdeas(List.of("a", "b"), List.of("c"), List.of("d")).reflection())
                .isEqualTo("new ideas: a; b | refined ideas: c | discarded ideas: d");
        assertThat(withIdeas(List.of(), List.of("c"), List.of()).reflection()).isEqualTo("refined ideas: c");
        assertThat(withIdeas(List.of("a"), List.of(), List.of("d")).reflection())
                .isEqualTo("new ideas: a | discarded ideas: d");
    }

    @Test
    void no_ideas_give_an_empty_reflection() {
        assertThat(withIdeas(List.of(), List.of(), List.of()).reflection()).isEmpty();
    }

    @Test
    void the_first_reply_is_all_new_and_judged_by_no_one() {
        Comparison first = Comparison.first();
        assertThat(first.verdict()).isEqualTo(Verdict.NEW);
        assertThat(first.novelty()).isEqualTo(1.0);
        assertThat(first.method()).isEqualTo("none");
        assertThat(first.usage()).isEqualTo(new Usage(0, 0, false));
        assertThat(first.identical()).isFalse();
        assertThat(first.reflection()).isEmpty();
    }

    @Test
    void lists_are_copied_so_the_caller_cannot_change_them_later() {
        List<String> added = new ArrayList<>(List.of("a"));
        Comparison c = withIdeas(added, List.of(), List.of());
        added.add("b");
        assertThat(c.newIdeas()).containsExactly("a");
    }

    @Test
    void out_of_range_novelty_an_unknown_method_and_an_identical_pair_that_is_not_same_are_refused() {
        Usage none = new Usage(0, 0, false);
        assertThatThrownBy(() -> new Comparison(Verdict.NEW, 1.2, List.of(), List.of(), List.of(), "local", none, false))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Comparison(Verdict.NEW, Double.NaN, List.of(), List.of(), List.of(), "local", none,
                false)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Comparison(Verdict.NEW, 0.5, List.of(), List.of(), List.of(), "magic", none, false))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Comparison(Verdict.NEW, 0.0, List.of(), List.of(), List.of(), "local", none, true))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
