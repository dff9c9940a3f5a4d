package dev.hmpagent.stagnation;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Collects the items of one idea list, whoever found them: at most {@link #MAX_ITEMS}, each on one line,
 * stripped, clipped to {@link #MAX_CHARS} characters with "…", blanks and repeats left out.
 */
final class IdeaList {
    static final int MAX_ITEMS = 5;
    static final int MAX_CHARS = 120;

    private final Set<String> items = new LinkedHashSet<>();

    /** Adds the item unless the list is full, the item blank or already there. */
    void add(String item) {
        if (items.size() >= MAX_ITEMS) return;
        String line = oneLine(item);
        if (line.isEmpty()) return;
        items.add(clip(line));
    }

    /** Every run of white space (line breaks included) as one space, stripped. */
    static String oneLine(String text) {
        StringBuilder out = new StringBuilder(text.length());
        boolean space = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                space = out.length() > 0;
            } else {
                if (space) out.append(' ');
                space = false;
                out.append(c);
            }
        }
        return out.toString();
    }

    List<String> toList() {
        return List.copyOf(items);
    }

    static String clip(String line) {
        if (line.codePointCount(0, line.length()) <= MAX_CHARS) return line;
        return line.substring(0, line.offsetByCodePoints(0, MAX_CHARS - 1)).stripTrailing() + "…";
    }
}
