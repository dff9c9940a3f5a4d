package dev.hmpagent.stagnation;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The word-level helpers the reply comparisons share: one normalisation (Unicode NFKC, lower case,
 * everything that is not a letter or a digit to a space, spacing collapsed), the Jaccard similarity of word
 * 3-shingles, content stems and the Jaccard similarity of sets. Pure and stateless.
 */
public final class Words {
    static final int SHINGLE = 3;
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
            couldn because before after until while whether since once already always without within
            instead another though although yet even ever never anything nothing something everything
            get got go goes going gone take took make made give given see seen look know think want need try
            use used seem say said tell keep one two three first second last next new old way thing things
            well really quite rather maybe perhaps probably done
            """
            // the words of the reply format itself, in every reply that has a command block
            + """
            cmd id type args description json commands command end
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

    /**
     * The words of {@code text} after normalising: NFKC, lower case, split on every run of characters that are
     * neither a letter nor a number ({@code [^\\p{L}\\p{N}]+}); empty for a text with no letter or digit.
     * A hand-written scan: a regex replace and split cost three times as much on every tick.
     */
    static List<String> normalised(String text) {
        String n = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        List<String> out = new ArrayList<>();
        int start = -1;
        for (int i = 0; i < n.length(); ) {
            int cp = n.codePointAt(i);
            if (isWordChar(cp)) {
                if (start < 0) start = i;
            } else if (start >= 0) {
                out.add(n.substring(start, i));
                start = -1;
            }
            i += Character.charCount(cp);
        }
        if (start >= 0) out.add(n.substring(start));
        return List.copyOf(out);
    }

    private static boolean isWordChar(int cp) {
        if (cp < 0x80) return cp >= 'a' && cp <= 'z' || cp >= '0' && cp <= '9' || cp >= 'A' && cp <= 'Z';
        if (Character.isLetter(cp)) return true;
        int type = Character.getType(cp);
        return type == Character.DECIMAL_DIGIT_NUMBER || type == Character.LETTER_NUMBER
                || type == Character.OTHER_NUMBER;
    }

    /**
     * The Jaccard similarity of the word 3-shingles of two word lists (of the word sets for a list of fewer than
     * three words); 0 when either is empty. Each shingle is a 64-bit hash, sorted and compared by merging:
     * a fifth of the cost of building strings, and a collision is a 2^-64 event.
     */
    static double shingleJaccard(List<String> a, List<String> b) {
        return shingleJaccard(shingleHashes(a), shingleHashes(b));
    }

    /** {@link #shingleJaccard(List, List)} of two lists' {@link #shingleHashes}. */
    static double shingleJaccard(long[] x, long[] y) {
        if (x.length == 0 || y.length == 0) return 0.0;
        int i = 0;
        int j = 0;
        int inter = 0;
        while (i < x.length && j < y.length) {
            if (x[i] == y[j]) {
                inter++;
                i++;
                j++;
            } else if (x[i] < y[j]) {
                i++;
            } else {
                j++;
            }
        }
        return (double) inter / (x.length + y.length - inter);
    }

    /** The distinct shingle hashes of {@code words}, sorted. */
    static long[] shingleHashes(List<String> words) {
        long[] w = new long[words.size()];
        for (int i = 0; i < w.length; i++) w[i] = hash(words.get(i));
        long[] out;
        if (w.length < SHINGLE) {
            out = w;
        } else {
            out = new long[w.length - SHINGLE + 1];
            for (int i = 0; i < out.length; i++) out[i] = mix(mix(mix(w[i]) ^ w[i + 1]) ^ w[i + 2]);
        }
        Arrays.sort(out);
        int unique = 0;
        for (int i = 0; i < out.length; i++) {
            if (i == 0 || out[i] != out[i - 1]) out[unique++] = out[i];
        }
        return Arrays.copyOf(out, unique);
    }

    /** FNV-1a over the chars, then mixed. */
    private static long hash(String word) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < word.length(); i++) h = (h ^ word.charAt(i)) * 0x100000001b3L;
        return mix(h);
    }

    /** The SplitMix64 finaliser. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /**
     * The stems of the words that are neither stopwords nor a single character ("-l", "c-1"), so a paraphrase
     * ("loops" / "looping") still overlaps.
     */
    static Set<String> contentStems(List<String> words) {
        Set<String> out = new HashSet<>();
        for (String w : words) {
            if (w.codePointCount(0, w.length()) > 1 && !STOPWORDS.contains(w)) out.add(stem(w));
        }
        return out;
    }

    /**
     * One English inflection cut ("-ing", "-ed" or "-s", then a final "e", keeping at least three characters),
     * then the first {@link #STEM} characters. A prefix alone would match neither "loops" with "looping" nor
     * "change" with "changing".
     */
    static String stem(String word) {
        String w = word;
        if (w.length() >= 6 && w.endsWith("ing")) w = w.substring(0, w.length() - 3);
        else if (w.length() >= 5 && w.endsWith("ed")) w = w.substring(0, w.length() - 2);
        else if (w.length() >= 4 && w.endsWith("s") && !w.endsWith("ss")) w = w.substring(0, w.length() - 1);
        if (w.length() >= 4 && w.endsWith("e")) w = w.substring(0, w.length() - 1);
        if (w.codePointCount(0, w.length()) <= STEM) return w;
        return w.substring(0, w.offsetByCodePoints(0, STEM));
    }

    /** The content stems of {@code text}: what a flashback measures distance in meaning by. */
    public static Set<String> contentSet(String text) {
        return contentStems(normalised(text));
    }

    /**
     * SHA-256 (hex) of the normalised words: equal for two texts that differ only in case, spacing, punctuation or
     * Unicode form, so an exact repeat of an earlier reply is found by an index, not by comparing texts.
     */
    public static String contentHash(String text) {
        try {
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
            return java.util.HexFormat.of().formatHex(sha.digest(String.join(" ", normalised(text))
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** |a ∩ b| / |a ∪ b|; 0 when either set is empty. */
    public static double jaccard(Set<String> a, Set<String> b) {
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
