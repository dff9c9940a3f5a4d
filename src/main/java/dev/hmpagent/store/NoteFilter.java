package dev.hmpagent.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Which unread notes the auto notes mode lets through: at or above a priority and, when tags are
 * given, carrying at least one of them. Notes it holds back stay unread and wake nothing.
 */
public record NoteFilter(int minPriority, List<String> tags) {
    public static final NoteFilter ALL = new NoteFilter(Integer.MIN_VALUE, List.of());

    public NoteFilter {
        tags = List.copyOf(Objects.requireNonNull(tags, "tags"));
    }

    /** Parses "a, b,c" into tags; blank means any. */
    public static List<String> tagList(String commaSeparated) {
        List<String> out = new ArrayList<>();
        for (String t : commaSeparated.split(",")) if (!t.isBlank()) out.add(t.strip().toLowerCase(java.util.Locale.ROOT));
        return out;
    }

    /** The SQL condition (after WHERE ... AND) and its parameters appended to {@code params}. */
    String sql(List<Object> params) {
        StringBuilder sb = new StringBuilder("priority >= ?");
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
        return sb.toString();
    }
}
