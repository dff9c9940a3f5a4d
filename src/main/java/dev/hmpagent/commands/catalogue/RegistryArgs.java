package dev.hmpagent.commands.catalogue;

import dev.hmpagent.text.Text;
import dev.hmpagent.commands.Args;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What the registry families share: a few argument readers and the shape of a capped listing. */
final class RegistryArgs {
    /** The most lines a listing shows; the rest is counted. */
    static final int MAX_LINES = 50;
    /** The most characters of free text one line of a listing shows. */
    static final int MAX_TEXT = 160;

    private RegistryArgs() { }

    /** true/false, 1/0 or "true"/"false"; empty when absent. */
    static Optional<Boolean> optionalBoolean(Args args, String name) {
        JsonNode v = args.node().get(name);
        if (v == null || v.isNull()) return Optional.empty();
        if (v.isBoolean()) return Optional.of(v.booleanValue());
        if (v.isIntegralNumber() && (v.asLong() == 0 || v.asLong() == 1)) return Optional.of(v.asLong() == 1);
        if (v.isTextual() && (v.asText().equalsIgnoreCase("true") || v.asText().equalsIgnoreCase("false"))) {
            return Optional.of(Boolean.parseBoolean(v.asText()));
        }
        throw args.bad("args." + name + " must be true or false");
    }

    /** The optional text args among {@code names} that are present, by name, in the given order. */
    static Map<String, String> texts(Args args, List<String> names) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String n : names) args.optionalText(n).ifPresent(v -> out.put(n, v));
        return out;
    }

    /** Text on one line, clipped to {@code max} characters with an ellipsis. */
    static String oneLine(String s, int max) {
        return Text.fit(Text.collapse(s), max);
    }

    /** A header line, then at most {@link #MAX_LINES} lines and a count of the rest; {@code empty} when none. */
    static String listing(String header, List<String> lines, String empty) {
        if (lines.isEmpty()) return empty;
        StringBuilder sb = new StringBuilder(header);
        for (String line : lines.subList(0, Math.min(lines.size(), MAX_LINES))) sb.append('\n').append(line);
        if (lines.size() > MAX_LINES) sb.append("\n… and ").append(lines.size() - MAX_LINES).append(" more");
        return sb.toString();
    }
}
