package dev.hmpagent.stagnation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.llm.Usage;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Issue 20: the parser of the judge's comparison answer under random and hostile text. Its work is bounded by
 * construction (at most {@link ComparisonParser#MAX_CHARS} characters, {@link ComparisonParser#MAX_TRIES}
 * candidates); the property is that nothing escapes and the answer is always a comparison. Seed pinned.
 */
class ComparisonParserFuzzTest {
    private final ComparisonParser parser = new ComparisonParser(0.3);
    private final Comparison local = new Comparison(Comparison.Verdict.NEW, 0.42, List.of(), List.of(), List.of(),
            "local", new Usage(0, 0, false), false);

    @Provide
    Arbitrary<String> answers() {
        Arbitrary<String> token = Arbitraries.oneOf(
                Arbitraries.of("{", "}", "[", "]", "\"", "'", "\\", ",", ":", "\n", "```json\n", "```",
                        "\"novelty\": ", "\"new_thoughts\": \"yes\"", "0.5", "NaN", "1e999", "-1", "null",
                        "\"new_ideas\": [", "{\"verdict\": \"same\"}", "é😀"),
                Arbitraries.strings().ofMaxLength(10),
                Arbitraries.of("{", "[", "\"", "{\"a\":").flatMap(t -> Arbitraries.integers().between(100, 70_000).map(t::repeat)));
        return token.list().ofMaxSize(40).map(parts -> String.join("", parts));
    }

    @Property(tries = 300, seed = "20601")
    void no_exception_escapes_and_the_novelty_stays_in_range(@ForAll("answers") String answer) {
        Comparison c = parser.parse(answer, local, new Usage(1, 1, false));

        assertThat(c).isNotNull();
        assertThat(c.novelty()).isBetween(0.0, 1.0);
    }
}
