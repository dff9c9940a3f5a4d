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

    static int distance(String a, String b) {
        return dev.hmpagent.text.EditDistance.between(a, b);
    }
}
