package dev.hmpagent.stagnation;

import java.text.Normalizer;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Local, cheap comparison of two replies: normalise (Unicode NFKC, lower case, punctuation to
 * spaces, spacing collapsed), then 1 - Jaccard similarity of word 3-shingles (word sets for
 * replies shorter than three words). About 90 µs for two 2 KB replies.
 */
public final class NoveltyScorer {
    private static final int SHINGLE = 3;

    public Novelty compare(String previous, String current) {
        List<String> a = words(previous);
        List<String> b = words(current);
        if (a.equals(b)) return new Novelty(0.0, true);
        Set<String> sa = shingles(a);
        Set<String> sb = shingles(b);
        if (sa.isEmpty() || sb.isEmpty()) return new Novelty(1.0, false);
        Set<String> inter = new HashSet<>(sa);
        inter.retainAll(sb);
        int union = sa.size() + sb.size() - inter.size();
        double similarity = (double) inter.size() / union;
        return new Novelty(1.0 - similarity, false);
    }

    static List<String> words(String text) {
        String n = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
        return n.isEmpty() ? List.of() : List.of(n.split(" "));
    }

    private static Set<String> shingles(List<String> words) {
        Set<String> out = new HashSet<>();
        if (words.size() < SHINGLE) {
            out.addAll(words);
            return out;
        }
        for (int i = 0; i + SHINGLE <= words.size(); i++) out.add(String.join(" ", words.subList(i, i + SHINGLE)));
        return out;
    }
}
