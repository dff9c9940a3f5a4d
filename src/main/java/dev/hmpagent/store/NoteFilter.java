package dev.hmpagent.store;

import dev.hmpagent.text.Json;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Which unread notes the auto notes mode lets through: at or above a priority and, when given, carrying at
 * least one of the tags (in {@code tags} or as a {@code #hashtag}), from one of the sources, written at or
 * after {@code since}. What the user types always passes: the filter is for the other sources (cli, system,
 * peers). Notes it holds back stay unread and wake nothing.
 *
 * @param since an ISO-8601 instant as stored in {@code notes.timestamp}, or empty for any time
 */
public record NoteFilter(int minPriority, List<String> tags, List<String> sources, String since) {
    public static final NoteFilter ALL = new NoteFilter(Integer.MIN_VALUE, List.of());
    /** A person's messages: typed ({@code user}) or sent with {@code agent note} ({@code cli}). */
    public static final NoteFilter PERSON_OR_CLI = new NoteFilter(Integer.MIN_VALUE, List.of(), List.of("user", "cli"), "");
    /** The sources a filter may name (the LLM's own notes never come back as input). */
    public static final Set<String> SOURCES = Set.of("user", "cli", "system", "peer");
    private static final ObjectMapper JSON = Json.mapper();

    public NoteFilter {
        tags = List.copyOf(Objects.requireNonNull(tags, "tags"));
        sources = List.copyOf(Objects.requireNonNull(sources, "sources"));
        Objects.requireNonNull(since, "since");
    }

    /** Priority and tags only (agent.toml's filter). */
    public NoteFilter(int minPriority, List<String> tags) {
        this(minPriority, tags, List.of(), "");
    }

    /** Parses "a, b,c" into tags; blank means any. */
    public static List<String> tagList(String commaSeparated) {
        List<String> out = new ArrayList<>();
        for (String t : commaSeparated.split(",")) if (!t.isBlank()) out.add(asciiLower(t.strip().replaceFirst("^#", "")));
        return out;
    }

    /**
     * Reads a filter written as JSON: {@code {"tags": ["ops"] or "ops,urgent", "min_priority": 1, "since":
     * "2026-11-21T10:00:00Z" or "2026-11-21", "sources": ["cli", "peer"]}}; a field left out does not filter.
     *
     * @throws IllegalArgumentException naming the field that is wrong and how to write it
     */
    public static NoteFilter fromJson(String json) {
        JsonNode node;
        try {
            node = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the filter is not JSON");
        }
        if (node == null || !node.isObject()) throw new IllegalArgumentException("the filter must be a JSON object");
        for (var names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!Set.of("tags", "min_priority", "since", "sources").contains(name)) {
                throw new IllegalArgumentException("filter." + name + " is not a filter field; use tags, min_priority,"
                        + " since, sources");
            }
        }
        int minPriority = Integer.MIN_VALUE;
        JsonNode p = node.get("min_priority");
        if (p != null && !p.isNull()) {
            if (!p.canConvertToInt() || !p.isIntegralNumber()) {
                throw new IllegalArgumentException("filter.min_priority must be a whole number");
            }
            minPriority = p.asInt();
        }
        List<String> tags = tagList(String.join(",", strings(node.get("tags"), "tags")));
        List<String> sources = new ArrayList<>();
        for (String s : strings(node.get("sources"), "sources")) {
            String source = asciiLower(s.strip());
            if (source.isEmpty()) continue;
            if (!SOURCES.contains(source)) {
                throw new IllegalArgumentException("filter.sources: unknown source \"" + s + "\"; sources are "
                        + String.join(", ", SOURCES.stream().sorted().toList()));
            }
            sources.add(source);
        }
        JsonNode s = node.get("since");
        String since = s == null || s.isNull() || s.asText().isBlank() ? "" : instant(s.asText().strip());
        return new NoteFilter(minPriority, tags, sources, since);
    }

    /** This filter as {@link #fromJson} reads it. */
    public String toJson() {
        ObjectNode node = JSON.createObjectNode();
        if (!tags.isEmpty()) node.set("tags", JSON.valueToTree(tags));
        if (minPriority != Integer.MIN_VALUE) node.put("min_priority", minPriority);
        if (!since.isEmpty()) node.put("since", since);
        if (!sources.isEmpty()) node.set("sources", JSON.valueToTree(sources));
        return node.toString();
    }

    /** One line for the prompt: "priority >= 1, tags ops, sources cli, since ..." or "none". */
    public String describe() {
        List<String> parts = new ArrayList<>();
        if (minPriority != Integer.MIN_VALUE) parts.add("priority >= " + minPriority);
        if (!tags.isEmpty()) parts.add("tags " + String.join("|", tags));
        if (!sources.isEmpty()) parts.add("sources " + String.join("|", sources));
        if (!since.isEmpty()) parts.add("since " + since);
        return parts.isEmpty() ? "none" : String.join(", ", parts);
    }

    private static List<String> strings(JsonNode v, String name) {
        List<String> out = new ArrayList<>();
        if (v == null || v.isNull()) return out;
        if (v.isTextual()) {
            for (String part : v.asText().split(",")) out.add(part);
            return out;
        }
        if (!v.isArray()) throw new IllegalArgumentException("filter." + name + " must be a list of strings");
        for (JsonNode item : v) {
            if (!item.isTextual()) throw new IllegalArgumentException("filter." + name + " must be a list of strings");
            out.add(item.asText());
        }
        return out;
    }

    private static String instant(String text) {
        try {
            return Store.format(Instant.parse(text));
        } catch (DateTimeParseException notAnInstant) {
            try {
                return Store.format(LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant());
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("filter.since must be an ISO-8601 time such as "
                        + "2026-11-21T10:00:00Z or a date such as 2026-11-21, got \"" + text + "\"");
            }
        }
    }

    /** Lower-cases A-Z only, as SQLite's lower() does, so both sides fold the same way. */
    static String asciiLower(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (char c : s.toCharArray()) sb.append(c >= 'A' && c <= 'Z' ? (char) (c + 32) : c);
        return sb.toString();
    }

    /** "carries one of {@code tags}", in the {@code tags} column or as a hashtag, as an SQL condition. */
    static String tagCondition(List<String> tags, List<Object> params) {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < tags.size(); i++) {
            if (i > 0) sb.append(" OR ");
            sb.append("(',' || lower(replace(coalesce(tags, ''), ' ', '')) || ',') LIKE ? ESCAPE '\\'"
                    + " OR coalesce(hashtags, '') LIKE ? ESCAPE '\\'");
            params.add("%," + Store.likeLiteral(tags.get(i).replace(" ", "")) + ",%");
            params.add("%\"" + Store.likeLiteral(tags.get(i).toLowerCase(Locale.ROOT)) + "\"%");
        }
        return sb.append(')').toString();
    }

    /** The SQL condition (after WHERE ... AND) and its parameters appended to {@code params}. */
    String sql(List<Object> params) {
        StringBuilder sb = new StringBuilder("(source = 'user' OR (priority >= ?");
        params.add(minPriority);
        if (!tags.isEmpty()) sb.append(" AND ").append(tagCondition(tags, params));
        if (!sources.isEmpty()) {
            sb.append(" AND source IN (").append(String.join(", ", sources.stream().map(s -> "?").toList())).append(')');
            params.addAll(sources);
        }
        if (!since.isEmpty()) {
            sb.append(" AND timestamp >= ?");
            params.add(since);
        }
        return sb.append("))").toString();
    }
}
