package dev.hmpagent.mcp;

import dev.hmpagent.text.Text;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * One tool call's arguments, read by name and type; a wrong one is a {@link Bad} whose message says which argument,
 * what it should be and what it was.
 */
final class ToolArguments {
    /** An argument the tool cannot take: its message is the one line the caller gets back. */
    static final class Bad extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Bad(String message) {
            super(message);
        }
    }

    private final String tool;
    private final Map<String, Object> values;

    ToolArguments(String tool, Map<String, Object> values, Set<String> known) {
        this.tool = Objects.requireNonNull(tool, "tool");
        this.values = values == null ? Map.of() : values;
        Set<String> unknown = new TreeSet<>(this.values.keySet());
        unknown.removeAll(known);
        if (!unknown.isEmpty()) {
            throw new Bad(tool + " takes " + (known.isEmpty() ? "no arguments" : "only " + new TreeSet<>(known))
                    + ", not " + unknown);
        }
    }

    /** A string that must be given and not blank. */
    String text(String name) {
        Object v = values.get(name);
        if (!(v instanceof String s) || s.isBlank()) {
            throw new Bad(tool + " needs \"" + name + "\", a non-empty string" + given(v));
        }
        return s;
    }

    Optional<String> optionalText(String name) {
        Object v = values.get(name);
        if (v == null) return Optional.empty();
        if (!(v instanceof String s)) throw new Bad(tool + ": \"" + name + "\" must be a string" + given(v));
        return Optional.of(s).filter(x -> !x.isBlank());
    }

    /** A whole number from {@code min} to {@code max}, {@code fallback} when not given. */
    long integer(String name, long fallback, long min, long max) {
        return optionalInteger(name, min, max).orElse(fallback);
    }

    Optional<Long> optionalInteger(String name, long min, long max) {
        Object v = values.get(name);
        if (v == null) return Optional.empty();
        boolean whole = v instanceof Integer || v instanceof Long
                || (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue()));
        long n = whole ? ((Number) v).longValue() : 0;
        if (!whole || n < min || n > max) {
            throw new Bad(tool + ": \"" + name + "\" must be a whole number from " + min + " to " + max + given(v));
        }
        return Optional.of(n);
    }

    boolean flag(String name) {
        Object v = values.get(name);
        if (v == null) return false;
        if (!(v instanceof Boolean b)) throw new Bad(tool + ": \"" + name + "\" must be true or false" + given(v));
        return b;
    }

    private static String given(Object v) {
        return v == null ? " (it was not given)" : " (it was " + Text.oneLine(String.valueOf(v), 60) + ")";
    }
}
