package dev.hmpagent.stagnation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;

/**
 * The chant detector against its definition, on random text, runs of one character and chunks said again and
 * again, cut into random deltas (issue 20). Work is counted in steps, never timed.
 */
class ChantDetectorPropertiesTest {
    private static final String[] MARKERS = {"# Commands:", "# Команды:"};

    @Property(tries = 1000, seed = "20201")
    void what_is_found_is_the_first_place_the_definition_holds(@ForAll("replies") String text, @ForAll("cuts") List<Integer> cuts) {
        for (int repeats = 3; repeats <= 4; repeats++) {
            for (int shortRepeats : new int[] {0, 4, 5}) {
                ChantDetector d = new ChantDetector(5, repeats, 12, shortRepeats);
                boolean said = feed(d, text, cuts);
                ChantDetector.Found expected = firstChant(text, 5, repeats, 12, shortRepeats);
                assertThat(d.found()).as("repeats %d, short %d in %s", repeats, shortRepeats, text).isEqualTo(expected);
                assertThat(said).isEqualTo(expected != null);
            }
        }
    }

    @Property(tries = 300, seed = "20205")
    void short_phrases_with_the_real_limits_are_found_where_the_definition_says(@ForAll("shortChants") String text,
            @ForAll("cuts") List<Integer> cuts) {
        ChantDetector d = new ChantDetector(20, 10, 400);
        feed(d, text, cuts);
        assertThat(d.found()).as("in %s", text).isEqualTo(firstChant(text, 20, 10, 400, ChantDetector.SHORT_REPEATS));
    }

    @Property(tries = 200, seed = "20202")
    void how_the_reply_is_cut_into_deltas_changes_nothing(@ForAll("longReplies") String text, @ForAll("cuts") List<Integer> cuts) {
        ChantDetector whole = new ChantDetector(20, 10, 400);
        ChantDetector cut = new ChantDetector(20, 10, 400);
        ChantDetector oneByOne = new ChantDetector(20, 10, 400);
        whole.feed(text);
        feed(cut, text, cuts);
        feed(oneByOne, text, List.of(1));
        assertThat(cut.found()).isEqualTo(whole.found());
        assertThat(oneByOne.found()).isEqualTo(whole.found());
    }

    @Property(tries = 60, seed = "20203")
    void work_is_a_few_steps_per_character(@ForAll("longReplies") String head, @ForAll("floods") String flood,
            @ForAll("cuts") List<Integer> cuts) {
        String text = head + flood;
        ChantDetector d = new ChantDetector(20, 10, 400);
        feed(d, text, cuts);
        // the one-off look back when a chant is found is at most one loop: repeats * maxPeriod
        assertThat(d.steps()).as("steps for %d characters", text.length()).isLessThanOrEqualTo(8L * text.length() + 4_000);
    }

    @Property(tries = 300, seed = "20204")
    void any_text_at_all_is_taken_without_an_exception(@ForAll String text, @ForAll("cuts") List<Integer> cuts) {
        ChantDetector d = new ChantDetector(5, 2, 12);
        feed(d, text, cuts);
        assertThat(d.steps()).isLessThanOrEqualTo(40L * text.length() + 200);
    }

    @Provide
    Arbitrary<List<Integer>> cuts() {
        return Arbitraries.integers().between(1, 64).list().ofMinSize(1).ofMaxSize(20);
    }

    /** Short replies over a small alphabet: plenty of accidental repeats, chants of 5 to 12 characters, markers. */
    @Provide
    Arbitrary<String> replies() {
        Arbitrary<String> noise = Arbitraries.strings().withChars("ab-| \n").ofMaxLength(12);
        // chunks that are themselves nearly repeats ("abab" + "a"): where a detector looking for periods goes wrong
        Arbitrary<String> inner = Combinators.combine(Arbitraries.strings().withChars("ab").ofMinLength(1).ofMaxLength(4),
                Arbitraries.integers().between(1, 4), Arbitraries.strings().withChars("abc").ofMaxLength(3))
                .as((unit, times, tail) -> unit.repeat(times) + tail);
        Arbitrary<String> chant = Combinators.combine(Arbitraries.oneOf(inner,
                Arbitraries.strings().withChars("abc- ").ofMinLength(1).ofMaxLength(13)),
                Arbitraries.integers().between(1, 7)).as(String::repeat);
        Arbitrary<String> marker = Arbitraries.of(MARKERS);
        return Arbitraries.frequencyOf(weighted(6, noise), weighted(6, chant), weighted(1, marker)).list().ofMaxSize(12)
                .map(parts -> String.join("", parts));
    }

    /** Longer replies with the real limits: prose, markdown rules and tables, chunks of 1 to 60 characters repeated. */
    @Provide
    Arbitrary<String> longReplies() {
        Arbitrary<String> prose = Arbitraries.strings().withChars("abcdefgh ,.\n").ofMaxLength(80);
        Arbitrary<String> markdown = Arbitraries.of("\n---\n", "\n| a | b |\n|---|---|\n| 1 | 2 |\n", "-".repeat(80) + "\n", "# Commands:");
        Arbitrary<String> chant = Combinators.combine(Arbitraries.strings().withChars("abcdef -").ofMinLength(1).ofMaxLength(60),
                Arbitraries.integers().between(1, 14)).as(String::repeat);
        return Arbitraries.frequencyOf(weighted(4, prose), weighted(2, markdown), weighted(4, chant)).list().ofMaxSize(10)
                .map(parts -> String.join("", parts));
    }

    /** Prose, then a phrase of 1 to 19 characters (a number, dashes, words) said 20 to 60 times, then prose. */
    @Provide
    Arbitrary<String> shortChants() {
        Arbitrary<String> prose = Arbitraries.strings().withChars("abcdefgh ,.\n").ofMaxLength(80);
        Arbitrary<String> phrase = Arbitraries.strings().withChars("0M3 ,\n-|a").ofMinLength(1).ofMaxLength(19);
        return Combinators.combine(prose, phrase, Arbitraries.integers().between(20, 60), prose)
                .as((head, p, times, tail) -> head + p.repeat(times) + tail);
    }

    /** Floods of up to 200,000 characters: one character, a short phrase, or a chunk of up to 400 said over and over. */
    @Provide
    Arbitrary<String> floods() {
        Arbitrary<String> chunk = Arbitraries.oneOf(Arbitraries.strings().withChars("A-").ofLength(1),
                Arbitraries.strings().withChars("abcdef ").ofMinLength(2).ofMaxLength(25),
                Arbitraries.strings().withChars("ab").ofMinLength(20).ofMaxLength(400));
        return Combinators.combine(chunk, Arbitraries.integers().between(1_000, 200_000))
                .as((c, length) -> c.repeat(length / c.length() + 1));
    }

    private static Tuple2<Integer, Arbitrary<? extends String>> weighted(int weight, Arbitrary<String> a) {
        return Tuple.of(weight, a);
    }

    private static boolean feed(ChantDetector d, String text, List<Integer> cuts) {
        boolean said = false;
        for (int i = 0, k = 0; i < text.length(); k++) {
            int next = Math.min(text.length(), i + cuts.get(k % cuts.size()));
            said = d.feed(text.substring(i, next));
            i = next;
        }
        return said;
    }

    /**
     * The definition, by brute force: the first end after which the text (before any command marker) finishes with
     * a chunk of minPeriod..maxPeriod characters, not itself a shorter chunk repeated, written repeats times, or a
     * chunk of 2..minPeriod-1 characters holding a letter or digit and not digits alone, written shortRepeats times
     * (none when 0); the shortest such chunk; the loop reaching back as far as the text repeats at that distance.
     */
    static ChantDetector.Found firstChant(String text, int minPeriod, int repeats, int maxPeriod, int shortRepeats) {
        int limit = text.length();
        for (String marker : MARKERS) {
            int at = text.indexOf(marker);
            if (at >= 0) limit = Math.min(limit, at + marker.length() - 1);   // its last character is never taken
        }
        for (int end = 1; end <= limit; end++) {
            for (int period = Math.min(2, minPeriod); period <= maxPeriod && period <= end; period++) {
                int times = period >= minPeriod ? repeats : shortRepeats;
                if (times == 0 || !repeatsFor(text, end, period, period * (times - 1))) continue;
                String u = text.substring(end - period, end);
                boolean words = u.matches("(?s).*[\\p{L}\\p{Nd}].*") && !u.matches("\\p{Nd}+");
                if ((period >= minPeriod || words) && primitive(u)) {
                    int run = back(text, end, period);
                    int start = end - period - run;
                    return new ChantDetector.Found(start, text.substring(start, start + period), (run + period) / period);
                }
            }
        }
        return null;
    }

    /** Whether at least {@code needed} characters back from {@code end} each equal the one {@code period} before. */
    private static boolean repeatsFor(String text, int end, int period, int needed) {
        for (int i = end - 1; i > end - 1 - needed; i--) {
            if (i - period < 0 || text.charAt(i) != text.charAt(i - period)) return false;
        }
        return true;
    }

    private static int back(String text, int end, int period) {
        int i = end - 1;
        while (i - period >= 0 && text.charAt(i) == text.charAt(i - period)) i--;
        return end - 1 - i;
    }

    private static boolean primitive(String u) {
        for (int d = 1; d < u.length(); d++) {
            if (u.length() % d == 0 && u.substring(0, u.length() - d).equals(u.substring(d))) return false;
        }
        return true;
    }
}
