package dev.hmpagent.safety;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collection;
import java.util.Map;

/**
 * Reading and writing the pieces of {@link SafetyRules}' state JSON: counts, text, maps and runs of outcomes. A piece
 * that is not what it should be throws IllegalArgumentException, and the whole state starts afresh.
 */
final class RulesJson {
    private RulesJson() { }

    /** Outcomes oldest first as {@code "SF…"}: F for a failure, S for a success. */
    static String outcomes(Collection<Boolean> failed) {
        StringBuilder out = new StringBuilder(failed.size());
        failed.forEach(f -> out.append(f ? 'F' : 'S'));
        return out.toString();
    }

    /** What {@link #outcomes(Collection)} wrote, added to {@code into}. */
    static void readOutcomes(JsonNode node, Collection<Boolean> into) {
        String text = text(node);
        for (char c : text.toCharArray()) {
            if (c != 'F' && c != 'S') throw new IllegalArgumentException("not an outcome run: " + text);
            into.add(c == 'F');
        }
    }

    static void readCounts(JsonNode node, Map<String, Integer> into) {
        if (node.isMissingNode()) return;
        if (!node.isObject()) throw new IllegalArgumentException("not an object");
        node.fields().forEachRemaining(e -> into.put(e.getKey(), count(e.getValue())));
    }

    static void readTexts(JsonNode node, Map<String, String> into) {
        if (node.isMissingNode()) return;
        if (!node.isObject()) throw new IllegalArgumentException("not an object");
        node.fields().forEachRemaining(e -> into.put(e.getKey(), text(e.getValue())));
    }

    static int count(JsonNode node) {
        if (node.isMissingNode()) return 0;
        if (!node.isInt() || node.intValue() < 0) throw new IllegalArgumentException("not a count: " + node);
        return node.intValue();
    }

    static String text(JsonNode node) {
        if (node.isMissingNode()) return "";
        if (!node.isTextual()) throw new IllegalArgumentException("not text: " + node);
        return node.textValue();
    }
}
