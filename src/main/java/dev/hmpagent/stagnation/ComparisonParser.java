package dev.hmpagent.stagnation;

import dev.hmpagent.text.Json;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.hmpagent.llm.Usage;
import dev.hmpagent.stagnation.Comparison.Verdict;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Reads a model's answer to the comparison prompt of {@link LlmComparator}. Pure: no I/O, no state between
 * calls, safe to share between threads; never throws for any answer.
 *
 * <h2>Finding the object</h2>
 * The first balanced {@code {...}} that parses as a JSON object, wherever it is: inside {@code ```json}
 * fences, after or before prose; a candidate that does not parse (prose in braces) is passed over. Braces
 * inside strings (double or single quoted) do not count. Single-quoted
 * strings, trailing commas and raw control characters inside strings are accepted. At most
 * {@value #MAX_CHARS} characters of the answer and {@value #MAX_TRIES} candidate objects are read.
 *
 * <h2>Fields</h2>
 * Keys are matched case-insensitively.
 * <ul>
 *   <li>verdict: the first of {@code new_thoughts}, {@code verdict}, {@code new} that reads as one:
 *       yes / true / new give NEW, no / false / same give SAME (JSON booleans, or the first word of a string
 *       in any case: "Yes." and "no, the same plan" count);</li>
 *   <li>{@code novelty}: a number or a numeric string, clamped to 0..1;</li>
 *   <li>{@code new_ideas}, {@code refined_ideas}, {@code discarded_ideas}: arrays (a lone string is a list of
 *       one); items that are not strings become their JSON text; nulls and blanks are left out; at most 5
 *       items of 120 characters each, like the local lists. A missing list is empty.</li>
 * </ul>
 * When only one of verdict and novelty is given, the other is derived: a missing novelty is 0.9 for NEW and
 * 0.1 for SAME (the model said which side it is on, not how far); a missing verdict is NEW when the novelty
 * is at least the threshold, else SAME. When neither is given, or no object is found, the answer is
 * unreadable: verdict UNKNOWN with the local novelty and the local lists.
 *
 * <p>Identical is never read from the answer: it is the local judgement's.
 */
public final class ComparisonParser {
    static final int MAX_CHARS = 64_000;
    static final int MAX_TRIES = 16;
    static final double NOVELTY_IF_NEW = 0.9;
    static final double NOVELTY_IF_SAME = 0.1;

    private static final List<String> VERDICT_KEYS = List.of("new_thoughts", "verdict", "new");

    private final ObjectReader reader = Json.builder()
            .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES, JsonReadFeature.ALLOW_TRAILING_COMMA,
                    JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS)
            .build().reader();
    private final double noveltyThreshold;

    /** @param noveltyThreshold a novelty given without a verdict is NEW from this value up, else SAME (0..1) */
    public ComparisonParser(double noveltyThreshold) {
        if (!(noveltyThreshold >= 0.0 && noveltyThreshold <= 1.0)) {
            throw new IllegalArgumentException("noveltyThreshold must be in 0..1: " + noveltyThreshold);
        }
        this.noveltyThreshold = noveltyThreshold;
    }

    /**
     * The comparison the answer gives, with method {@code llm}.
     *
     * @param answer the model's text
     * @param local  the local comparison of the same two replies: its identical flag always, its novelty and
     *               lists when the answer is unreadable
     * @param usage  the tokens of the call
     */
    public Comparison parse(String answer, Comparison local, Usage usage) {
        Objects.requireNonNull(answer, "answer");
        Objects.requireNonNull(local, "local");
        Objects.requireNonNull(usage, "usage");
        if (local.identical()) return local.withMethod(Comparison.LLM, usage);
        Map<String, JsonNode> fields = firstObject(answer);
        Verdict verdict = verdict(fields);
        Double novelty = novelty(fields);
        if (verdict == null && novelty == null) {
            return new Comparison(Verdict.UNKNOWN, local.novelty(), local.newIdeas(), local.refinedIdeas(),
                    local.discardedIdeas(), Comparison.LLM, usage, false);
        }
        if (novelty == null) novelty = verdict == Verdict.NEW ? NOVELTY_IF_NEW : NOVELTY_IF_SAME;
        if (verdict == null) verdict = novelty >= noveltyThreshold ? Verdict.NEW : Verdict.SAME;
        return new Comparison(verdict, novelty, ideas(fields.get("new_ideas")), ideas(fields.get("refined_ideas")),
                ideas(fields.get("discarded_ideas")), Comparison.LLM, usage, false);
    }

    /** The fields of the first balanced object that parses, keys in lower case; empty when there is none. */
    private Map<String, JsonNode> firstObject(String answer) {
        String text = answer.length() > MAX_CHARS ? answer.substring(0, MAX_CHARS) : answer;
        int start = text.indexOf('{');
        for (int tries = 0; start >= 0 && tries < MAX_TRIES; tries++) {
            int end = balancedEnd(text, start);
            JsonNode node = end < 0 ? null : read(text.substring(start, end));
            if (node != null && node.isObject()) {
                Map<String, JsonNode> fields = new HashMap<>();
                for (Map.Entry<String, JsonNode> e : node.properties()) {
                    fields.putIfAbsent(e.getKey().strip().toLowerCase(Locale.ROOT), e.getValue());
                }
                return fields;
            }
            start = text.indexOf('{', start + 1);
        }
        return Map.of();
    }

    private JsonNode read(String candidate) {
        try {
            return reader.readTree(candidate);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /** The index after the brace that closes the one at {@code start}, or -1; braces in strings do not count. */
    static int balancedEnd(String text, int start) {
        int depth = 0;
        char quote = 0;
        boolean escaped = false;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (escaped) escaped = false;
                else if (c == '\\') escaped = true;
                else if (c == quote) quote = 0;
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return i + 1;
            }
        }
        return -1;
    }

    private static Verdict verdict(Map<String, JsonNode> fields) {
        for (String key : VERDICT_KEYS) {
            JsonNode v = fields.get(key);
            if (v == null) continue;
            if (v.isBoolean()) return v.booleanValue() ? Verdict.NEW : Verdict.SAME;
            if (!v.isTextual()) continue;
            List<String> words = Words.normalised(v.textValue());
            switch (words.isEmpty() ? "" : words.get(0)) {
                case "yes", "true", "new" -> {
                    return Verdict.NEW;
                }
                case "no", "false", "same" -> {
                    return Verdict.SAME;
                }
                default -> { }
            }
        }
        return null;
    }

    private static Double novelty(Map<String, JsonNode> fields) {
        JsonNode v = fields.get("novelty");
        double d;
        if (v == null) return null;
        if (v.isNumber()) {
            d = v.doubleValue();
        } else if (v.isTextual()) {
            try {
                d = Double.parseDouble(v.textValue().strip());
            } catch (NumberFormatException e) {
                return null;
            }
        } else {
            return null;
        }
        if (Double.isNaN(d)) return null;
        return Math.min(1.0, Math.max(0.0, d));
    }

    private static List<String> ideas(JsonNode value) {
        IdeaList list = new IdeaList();
        if (value == null || value.isNull()) return list.toList();
        if (value.isArray()) {
            for (JsonNode item : value) {
                if (!item.isNull()) list.add(item.isTextual() ? item.textValue() : item.toString());
            }
        } else {
            list.add(value.isTextual() ? value.textValue() : value.toString());
        }
        return list.toList();
    }
}
