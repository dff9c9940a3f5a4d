package dev.hmpagent.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Which unread notes the auto notes mode lets through: at or above a priority and, when tags are
 * given, carrying at least one of them. What the user types always passes: the filter is for the
 * other sources (cli, system, peers). Notes it holds back stay unread and wake nothing.
 */
public record NoteFilter(int minPriority, List<String> tags) {
    public static final NoteFilter ALL = new NoteFilter(Integer.MIN_VALUE, List.of());

    public NoteFilter {
        tags = List.copyOf(Objects.requireNonNull(tags, "tags"));
    }

    /** Parses "a, b,c" into tags; blank means any. */
    public static List<String> tagList(String commaSeparated) {
        List<String> out = new ArrayList<>();
        for (String t : commaSeparated.split(",")) if (!t.isBlank()) out.add(asciiLower(t.strip()));
        return out;
    }

    /** Lower-cases A-Z only, as SQLite's lower() does, so both sides fold the same way. */
    static String asciiLower(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (char c : s.toCharArray()) sb.append(c >= 'A' && c <= 'Z' ? (char) (c + 32) : c);
        return sb.toString();
    }

    /** The SQL condition (after WHERE ... AND) and its parameters appended to {@code params}. */
    String sql(List<Object> params) {
        StringBuilder sb = new StringBuilder("(source = 'user' OR (priority >= ?");
        params.add(minPriority);
        if (!tags.isEmpty()) {
            sb.append(" AND (");
            for (int i = 0; i < tags.size(); i++) {
                if (i > 0) sb.append(" OR ");
                sb.append("(',' || lower(replace(coalesce(tags, ''), ' ', '')) || ',') LIKE ? ESCAPE '\\'");
                params.add("%," + Store.likeLiteral(tags.get(i).replace(" ", "")) + ",%");
            }
            sb.append(')');
        }
        return sb.append("))").toString();
    }
}
