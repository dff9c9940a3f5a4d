package dev.hmpagent.stagnation;

import java.text.Normalizer;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The word-level helpers the reply comparisons share: one normalisation (Unicode NFKC, lower case,
 * everything that is not a letter or a digit to a space, spacing collapsed), word 3-shingles, content
 * stems and Jaccard similarity. Pure and stateless.
 */
final class Words {
    private static final Pattern NOT_WORD = Pattern.compile("[^\\p{L}\\p{N}]+");
    private static final int SHINGLE = 3;
    /** A crude stem: the first six characters of a word, after one English inflection is cut. */
    static final int STEM = 6;

    /** A small fixed list of English and Russian function words, after normalising (so "don't" gives "don", "t"). */
    private static final Set<String> STOPWORDS = Set.copyOf(List.of((
            // English
            """
            a an the and or but if then else so as than too very of to in on at by for with from into onto
            about over under up down out off again also only just still now here there is are was were be
            been being am do does did doing have has had having will would shall should can could may might
            must i me my mine we us our you your he him his she her it its they them their this that these
            those what which who whom whose when where why how not no yes all any some each every more most
            other such own same let s t d ll m re ve don doesn didn isn aren wasn weren won wouldn shouldn
            couldn
            """
            // Russian
            + """
            и в во не что он на я с со как а то все всё она так его но да ты к у же вы за бы по только ее
            её мне было вот от меня еще ещё нет о об из ему теперь когда даже ну ли если уже или ни быть
            был была были будет до вас там потом себя себе ей может они тут где есть надо ней для мы тебя
            их чем сам чтобы чтоб без чего тоже под тогда кто этот эта это эти того этого этой этом эту
            потому какой здесь мой моя тем сейчас можно при после над тот через нас про них
            """).strip().split("\\s+")));

    private Words() { }

    /** The words of {@code text} after normalising; empty for a text with no letter or digit. */
    static List<String> normalised(String text) {
        String n = NOT_WORD.matcher(Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT))
                .replaceAll(" ").strip();
        return n.isEmpty() ? List.of() : List.of(n.split(" "));
    }

    /** Word 3-shingles; the word set itself for fewer than three words. */
    static Set<String> shingles(List<String> words) {
        Set<String> out = new HashSet<>();
        if (words.size() < SHINGLE) {
            out.addAll(words);
            return out;
        }
        for (int i = 0; i + SHINGLE <= words.size(); i++) out.add(String.join(" ", words.subList(i, i + SHINGLE)));
        return out;
    }

    /** The stems of the words that are not stopwords, so a paraphrase ("loops" / "looping") still overlaps. */
    static Set<String> contentStems(List<String> words) {
        Set<String> out = new HashSet<>();
        for (String w : words) {
            if (!STOPWORDS.contains(w)) out.add(stem(w));
        }
        return out;
    }

    /**
     * One English inflection cut ("-ing", "-ed", "-s", keeping at least three characters), then the first
     * {@link #STEM} characters. A prefix alone would not match "loops" with "looping".
     */
    static String stem(String word) {
        String w = word;
        if (w.length() >= 6 && w.endsWith("ing")) w = w.substring(0, w.length() - 3);
        else if (w.length() >= 5 && w.endsWith("ed")) w = w.substring(0, w.length() - 2);
        else if (w.length() >= 4 && w.endsWith("s") && !w.endsWith("ss")) w = w.substring(0, w.length() - 1);
        if (w.codePointCount(0, w.length()) <= STEM) return w;
        return w.substring(0, w.offsetByCodePoints(0, STEM));
    }

    /** |a ∩ b| / |a ∪ b|; 0 when either set is empty. */
    static double jaccard(Set<String> a, Set<String> b) {
        if (a.isEmpty() || b.isEmpty()) return 0.0;
        Set<String> small = a.size() <= b.size() ? a : b;
        Set<String> large = small == a ? b : a;
        int inter = 0;
        for (String s : small) {
            if (large.contains(s)) inter++;
        }
        return (double) inter / (a.size() + b.size() - inter);
    }
}
