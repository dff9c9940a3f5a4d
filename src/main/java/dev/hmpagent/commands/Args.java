package dev.hmpagent.commands;

import dev.hmpagent.text.Text;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Typed, forgiving access to a command's {@code args}, with errors that say how to write them. */
public final class Args {
    private final String type;
    private final String example;
    private final ObjectNode node;

    public Args(String type, String example, ObjectNode node) {
        this.type = Objects.requireNonNull(type, "type");
        this.example = Objects.requireNonNull(example, "example");
        this.node = Objects.requireNonNull(node, "node");
    }

    public ObjectNode node() { return node; }

    public String requiredText(String name) {
        return optionalText(name).filter(s -> !s.isBlank())
                .orElseThrow(() -> bad("args." + name + " is required (a non-empty string)"));
    }

    /** A string; numbers and booleans are taken as their text, an array of strings is joined with commas. */
    public Optional<String> optionalText(String name) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) return Optional.empty();
        if (v.isTextual() || v.isNumber() || v.isBoolean()) return Optional.of(v.asText());
        if (v.isArray()) {
            List<String> parts = new ArrayList<>();
            for (JsonNode item : v) {
                if (!item.isValueNode()) throw bad("args." + name + " must be a string or a list of strings");
                parts.add(item.asText());
            }
            return Optional.of(String.join(",", parts));
        }
        throw bad("args." + name + " must be a string");
    }

    public long requiredLong(String name) {
        return optionalLong(name).orElseThrow(() -> bad("args." + name + " is required (a whole number)"));
    }

    public Optional<Long> optionalLong(String name) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) return Optional.empty();
        if (v.canConvertToLong() && v.isIntegralNumber()) return Optional.of(v.asLong());
        if (v.isTextual() && v.asText().strip().matches("-?\\d{1,18}")) return Optional.of(Long.parseLong(v.asText().strip()));
        throw bad("args." + name + " must be a whole number, got " + abbreviate(v.toString()));
    }

    /** true/false (also "true"/"false", 1/0). */
    public Optional<Boolean> optionalBoolean(String name) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) return Optional.empty();
        if (v.isBoolean()) return Optional.of(v.asBoolean());
        String t = v.asText().strip().toLowerCase(java.util.Locale.ROOT);
        if (v.isValueNode() && (t.equals("true") || t.equals("1"))) return Optional.of(true);
        if (v.isValueNode() && (t.equals("false") || t.equals("0"))) return Optional.of(false);
        throw bad("args." + name + " must be true or false, got " + abbreviate(v.toString()));
    }

    /** A whole number from {@code min} to {@code max}, or {@code fallback} when absent. */
    public int intWithin(String name, int min, int max, int fallback) {
        long v = optionalLong(name).orElse((long) fallback);
        if (v < min || v > max) throw bad("args." + name + " must be from " + min + " to " + max + ", got " + v);
        return (int) v;
    }

    /** A list of ids or names: a JSON array, or a single value. */
    public List<String> list(String name) {
        JsonNode v = node.get(name);
        List<String> out = new ArrayList<>();
        if (v == null || v.isNull()) return out;
        if (v.isArray()) {
            for (JsonNode item : v) {
                if (!item.isValueNode()) throw bad("args." + name + " must be a list of ids");
                out.add(item.asText());
            }
        } else if (v.isValueNode()) {
            out.add(v.asText());
        } else {
            throw bad("args." + name + " must be a list of ids");
        }
        return out;
    }

    public CommandArgException bad(String what) {
        return new CommandArgException(type + ": " + what + "; write it as " + example);
    }

    public static String abbreviate(String s) {
        return Text.oneLine(s, 60);
    }
}
