package dev.hmpagent.stagnation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.llm.Usage;
import dev.hmpagent.stagnation.Comparison.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

class ComparisonParserTest {
    final ComparisonParser parser = new ComparisonParser(0.3);
    final Comparison local = new Comparison(Verdict.NEW, 0.42, List.of("local new"), List.of("local refined"),
            List.of("local dropped"), "local", new Usage(0, 0, false), false);
    final Usage usage = new Usage(180, 40, false);

    static final String CLEAN = """
            {"new_thoughts": "yes", "novelty": 0.7, "new_ideas": ["a restore test"],
             "refined_ideas": ["give the directory back to the job's user"], "discarded_ideas": ["run the backup as root"]}""";

    Comparison parse(String answer) {
        return parser.parse(answer, local, usage);
    }

    void assertUnreadable(Comparison c) {
        assertThat(c.verdict()).isEqualTo(Verdict.UNKNOWN);
        assertThat(c.novelty()).isEqualTo(0.42);
        assertThat(c.newIdeas()).containsExactly("local new");
        assertThat(c.refinedIdeas()).containsExactly("local refined");
        assertThat(c.discardedIdeas()).containsExactly("local dropped");
        assertThat(c.method()).isEqualTo("llm");
        assertThat(c.usage()).isEqualTo(usage);
    }

    @Test
    void clean_json_gives_the_verdict_novelty_and_lists_of_the_model() {
        Comparison c = parse(CLEAN);
        assertThat(c.verdict()).isEqualTo(Verdict.NEW);
        assertThat(c.novelty()).isEqualTo(0.7);
        assertThat(c.newIdeas()).containsExactly("a restore test");
        assertThat(c.refinedIdeas()).containsExactly("give the directory back to the job's user");
        assertThat(c.discardedIdeas()).containsExactly("run the backup as root");
        assertThat(c.method()).isEqualTo("llm");
        assertThat(c.usage()).isEqualTo(usage);
        assertThat(c.identical()).isFalse();
    }

    @Test
    void fenced_json_and_json_between_prose_read_the_same() {
        assertThat(parse("```json\n" + CLEAN + "\n```")).isEqualTo(parse(CLEAN));
        assertThat(parse("Sure! Here is my comparison:\n\n" + CLEAN + "\n\nI hope it's useful. {end}"))
                .isEqualTo(parse(CLEAN));
    }

    @Test
    void prose_in_braces_before_the_object_is_passed_over() {
        assertThat(parse("I weighed {both replies} and it's clear: {\"new_thoughts\": \"no\"}").verdict())
                .isEqualTo(Verdict.SAME);
    }

    @Test
    void a_missing_novelty_follows_the_verdict_and_missing_lists_are_empty() {
        Comparison yes = parse("{\"new_thoughts\": \"yes\"}");
        assertThat(yes.verdict()).isEqualTo(Verdict.NEW);
        assertThat(yes.novelty()).isEqualTo(0.9);
        assertThat(yes.newIdeas()).isEmpty();
        assertThat(yes.refinedIdeas()).isEmpty();
        assertThat(yes.discardedIdeas()).isEmpty();
        assertThat(parse("{\"new_thoughts\": \"no\"}").novelty()).isEqualTo(0.1);
    }

    @Test
    void a_missing_verdict_follows_the_novelty_and_the_threshold() {
        assertThat(parse("{\"novelty\": 0.2}").verdict()).isEqualTo(Verdict.SAME);
        assertThat(parse("{\"novelty\": 0.3}").verdict()).isEqualTo(Verdict.NEW);
    }

    @Test
    void novelty_as_a_string_is_read_and_out_of_range_is_clamped() {
        assertThat(parse("{\"new_thoughts\": \"yes\", \"novelty\": \"0.65\"}").novelty()).isEqualTo(0.65);
        assertThat(parse("{\"new_thoughts\": \"yes\", \"novelty\": 1.7}").novelty()).isEqualTo(1.0);
        assertThat(parse("{\"new_thoughts\": \"no\", \"novelty\": \"-0.2\"}").novelty()).isEqualTo(0.0);
        assertThat(parse("{\"new_thoughts\": \"no\", \"novelty\": \"low\"}").novelty()).as("unreadable: derived")
                .isEqualTo(0.1);
    }

    @Test
    void the_verdict_is_read_from_several_keys_and_spellings() {
        assertThat(parse("{\"verdict\": \"SAME\"}").verdict()).isEqualTo(Verdict.SAME);
        assertThat(parse("{\"verdict\": \"new\"}").verdict()).isEqualTo(Verdict.NEW);
        assertThat(parse("{\"new\": true}").verdict()).isEqualTo(Verdict.NEW);
        assertThat(parse("{\"New_Thoughts\": \"Yes.\"}").verdict()).isEqualTo(Verdict.NEW);
        assertThat(parse("{\"new_thoughts\": \"No, the same plan again\"}").verdict()).isEqualTo(Verdict.SAME);
        assertThat(parse("{\"new_thoughts\": \"FALSE\"}").verdict()).isEqualTo(Verdict.SAME);
        assertThat(parse("{\"new_thoughts\": \"maybe\", \"verdict\": \"same\"}").verdict())
                .as("an unreadable key gives way to the next").isEqualTo(Verdict.SAME);
    }

    @Test
    void single_quotes_and_trailing_commas_are_tolerated() {
        Comparison c = parse("{'new_thoughts': 'no', 'novelty': 0.2, 'new_ideas': ['x',],}");
        assertThat(c.verdict()).isEqualTo(Verdict.SAME);
        assertThat(c.novelty()).isEqualTo(0.2);
        assertThat(c.newIdeas()).containsExactly("x");
    }

    @Test
    void braces_inside_strings_do_not_end_the_object() {
        Comparison c = parse("{\"new_thoughts\": \"yes\", \"new_ideas\": [\"use a {placeholder} here\", \"a lone } brace\","
                + " \"an escaped \\\" quote {\"], \"novelty\": 0.8}");
        assertThat(c.newIdeas()).containsExactly("use a {placeholder} here", "a lone } brace", "an escaped \" quote {");
        assertThat(c.novelty()).isEqualTo(0.8);
    }

    @Test
    void items_that_are_not_strings_become_text_and_lists_are_capped_like_local_ones() {
        Comparison c = parse("{\"new_thoughts\": \"yes\", \"new_ideas\": [{\"cmd\": \"ls\"}, 42, null, \"  \"],"
                + " \"refined_ideas\": \"one idea alone\","
                + " \"discarded_ideas\": [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"" + "long ".repeat(40) + "\"]}");
        assertThat(c.newIdeas()).containsExactly("{\"cmd\":\"ls\"}", "42");
        assertThat(c.refinedIdeas()).containsExactly("one idea alone");
        assertThat(c.discardedIdeas()).containsExactly("a", "b", "c", "d", "e");
    }

    @Test
    void garbage_empty_and_unclosed_answers_are_unknown_with_the_local_view() {
        assertUnreadable(parse("garbage"));
        assertUnreadable(parse(""));
        assertUnreadable(parse("{"));
        assertUnreadable(parse("{\"new_thoughts\": \"yes\""));
        assertUnreadable(parse("[\"yes\"]"));
        assertUnreadable(parse("{\"opinion\": \"interesting\"}"));
        assertUnreadable(parse("{".repeat(100_000)));
    }

    @Test
    void identical_is_never_read_from_the_answer() {
        Comparison identical = Comparison.identical("local");
        Comparison c = parser.parse("{\"new_thoughts\": \"yes\", \"novelty\": 0.9}", identical, usage);
        assertThat(c.identical()).isTrue();
        assertThat(c.verdict()).isEqualTo(Verdict.SAME);
        assertThat(c.novelty()).isZero();
        assertThat(parse(CLEAN).identical()).isFalse();
    }
}
