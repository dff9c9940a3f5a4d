package dev.hmpagent.config;

import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/** Finds the known key a misspelt or misplaced name most likely meant. */
final class KeySuggester {
    static final int MAX_DISTANCE = 2;

    private KeySuggester() {
    }

    /** Nearest key within edit distance 2, else a key with the same leaf name in another table. */
    static Optional<ConfigKey> suggest(String unknown) {
        Optional<ConfigKey> near = Stream.of(ConfigKey.values())
                .filter(k -> distance(k.fullName(), unknown) <= MAX_DISTANCE)
                .min(Comparator.comparingInt(k -> distance(k.fullName(), unknown)));
        if (near.isPresent()) {
            return near;
        }
        String leaf = unknown.substring(unknown.lastIndexOf('.') + 1);
        return Stream.of(ConfigKey.values()).filter(k -> k.leafName().equals(leaf)).findFirst();
    }

    /** " (did you mean llm.model?)" or "". */
    static String hint(String unknown) {
        return suggest(unknown).map(k -> " (did you mean " + k.fullName() + "?)").orElse("");
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
