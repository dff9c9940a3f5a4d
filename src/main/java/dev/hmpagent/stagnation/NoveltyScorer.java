package dev.hmpagent.stagnation;

import java.util.List;

/**
 * Local, cheap comparison of two replies: normalise (Unicode NFKC, lower case, punctuation to
 * spaces, spacing collapsed), then 1 - Jaccard similarity of word 3-shingles (word sets for
 * replies shorter than three words). About 90 µs for two 2 KB replies.
 */
public final class NoveltyScorer {

    public Novelty compare(String previous, String current) {
        List<String> a = Words.normalised(previous);
        List<String> b = Words.normalised(current);
        if (a.equals(b)) return new Novelty(0.0, true);
        return new Novelty(1.0 - Words.shingleJaccard(a, b), false);
    }
}
