package dev.hmpagent.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.regex.Pattern;

/**
 * The type and constraint of one key. Turns raw text (env, flags, defaults) or a TOML node into a
 * canonical Java value: String, Path, Boolean, Long, Double or an unmodifiable List of one of them.
 * Reasons never contain the value.
 */
sealed interface ValueType {

    /** What is allowed, phrased as advice, e.g. "use a number from 0 to 2". */
    String allowed();

    /** Parses and checks text from env, flags or defaults. */
    Object parse(String text) throws InvalidValueException;

    /** Checks the TOML type, then the constraint. */
    Object fromToml(JsonNode node) throws InvalidValueException;

    /** The canonical value as {@code agent config} shows it (and as a default is written). */
    default String display(Object value) {
        return String.valueOf(value);
    }

    static ValueType text(boolean nonEmpty) {
        return new Text(nonEmpty);
    }

    static ValueType path() {
        return new FilePath();
    }

    static ValueType httpUrl() {
        return new HttpUrl();
    }

    static ValueType bool() {
        return new Bool();
    }

    static ValueType wholeNumber(long min, long max) {
        return new WholeNumber(min, max);
    }

    static ValueType decimal(double min, double max) {
        return new Decimal(min, max);
    }

    static ValueType choice(String... choices) {
        return new Choice(List.of(choices));
    }

    /** A TOML array of {@code element}s; from text, comma-separated or written as a TOML array. */
    static ValueType list(ValueType element, String plural) {
        return new ListOf(element, plural);
    }

    /**
     * A TOML array of tables ({@code [[llm.registry]]} or an inline array), each with only the given fields; kept as
     * an unmodifiable list of unmodifiable maps from field name to its canonical value (absent fields left out).
     */
    static ValueType tables(String what, List<Field> fields) {
        return new Tables(what, fields);
    }

    /** A TOML table of plain values (strings, numbers, booleans), such as model options; kept as a map. */
    static ValueType options() {
        return new Options();
    }

    /** "3" (transient failures in a row) or "90s" (seconds of failing); kept as a {@link FailoverAfter}. */
    static ValueType failuresOrSeconds() {
        return new FailuresOrSeconds();
    }

    /** One field of a {@link Tables} entry. */
    record Field(String name, ValueType type, boolean required) {
        public Field {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
        }
    }

    /** A command prefix such as {@code git status}: not blank, no control characters; whitespace collapsed. */
    static ValueType commandPrefix() {
        return new CommandPrefix();
    }

    /** The name of an environment variable, such as {@code GOPATH}: letters, digits and underscores, not a digit first. */
    static ValueType variableName() {
        return new VariableName();
    }

    /** A type written as a TOML string: the node must be text, then the text rules apply. */
    sealed interface Textual extends ValueType {
        @Override
        default Object fromToml(JsonNode node) throws InvalidValueException {
            if (!node.isTextual()) {
                throw wrongType(node);
            }
            return parse(node.textValue());
        }
    }

    /** "has the wrong type (string)" and friends. */
    static InvalidValueException wrongType(JsonNode node) {
        return new InvalidValueException("has the wrong type (" + tomlTypeName(node) + ")");
    }

    static String tomlTypeName(JsonNode node) {
        if (node.isTextual()) {
            return "string";
        }
        if (node.isBoolean()) {
            return "boolean";
        }
        if (node.isIntegralNumber()) {
            return "integer";
        }
        if (node.isNumber()) {
            return "float";
        }
        if (node.isArray()) {
            return "array";
        }
        return node.isObject() ? "table" : node.getNodeType().name().toLowerCase(Locale.ROOT);
    }

    /** Plain text; optionally must not be empty. */
    record Text(boolean nonEmpty) implements Textual {
        @Override
        public String allowed() {
            return nonEmpty ? "use a non-empty string" : "use a string";
        }

        @Override
        public Object parse(String text) throws InvalidValueException {
            if (nonEmpty && text.isBlank()) {
                throw new InvalidValueException("is empty");
            }
            return text;
        }
    }

    /** A non-empty file system path, kept as given (relative paths resolve against the working directory). */
    record FilePath() implements Textual {
        @Override
        public String allowed() {
            return "use a non-empty file path";
        }

        @Override
        public Object parse(String text) throws InvalidValueException {
            if (text.isBlank()) {
                throw new InvalidValueException("is empty");
            }
            try {
                return Path.of(text);
            } catch (InvalidPathException e) {
                throw new InvalidValueException("is not a valid path");
            }
        }
    }

    /** An absolute http:// or https:// URL with a host. */
    record HttpUrl() implements Textual {
        @Override
        public String allowed() {
            return "use an absolute http:// or https:// URL such as http://localhost:11434/v1";
        }

        @Override
        public Object parse(String text) throws InvalidValueException {
            URI uri;
            try {
                uri = new URI(text);
            } catch (URISyntaxException e) {
                throw new InvalidValueException("is not a valid URL");
            }
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!uri.isAbsolute() || !(scheme.equals("http") || scheme.equals("https"))) {
                throw new InvalidValueException("is not an http(s) URL");
            }
            if (uri.getHost() == null || uri.getHost().isEmpty()) {
                throw new InvalidValueException("has no host");
            }
            if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
                throw new InvalidValueException("has a ?query or #fragment: give the address without them (an LLM's paths"
                        + " are appended to its base_url; what an MCP server needs goes in headers)");
            }
            return text;
        }
    }

    /** A boolean; text accepts true/false, yes/no, 1/0 in any case. TOML needs a real boolean. */
    record Bool() implements ValueType {
        @Override
        public String allowed() {
            return "use true or false (env vars and flags also accept yes/no and 1/0)";
        }

        @Override
        public Object parse(String text) throws InvalidValueException {
            switch (text.trim().toLowerCase(Locale.ROOT)) {
                case "true", "yes", "1":
                    return Boolean.TRUE;
                case "false", "no", "0":
                    return Boolean.FALSE;
                default:
                    throw new InvalidValueException("is not a boolean");
            }
        }

        @Override
        public Object fromToml(JsonNode node) throws InvalidValueException {
            if (!node.isBoolean()) {
                throw wrongType(node);
            }
            return node.booleanValue();
        }
    }

    /** A whole number within [min, max]; kept as a Long. */
    record WholeNumber(long min, long max) implements ValueType {
        private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");

        @Override
        public String allowed() {
            return "use a whole number from " + min + " to " + max;
        }

        @Override
        public Object parse(String text) throws InvalidValueException {
            String trimmed = text.trim();
            if (!INTEGER.matcher(trimmed).matches()) {
                throw new InvalidValueException("is not a whole number");
            }
            try {
                return check(Long.parseLong(trimmed));
            } catch (NumberFormatException e) {
                throw new InvalidValueException("is out of range");
            }
        }

        @Override
        public Object fromToml(JsonNode node) throws InvalidValueException {
            if (node.isIntegralNumber()) {
                if (!node.canConvertToLong()) {
                    throw new InvalidValueException("is out of range");
                }
                return check(node.longValue());
            }
            if (node.isNumber()) {
                throw new InvalidValueException("is not a whole number");
            }
            throw wrongType(node);
        }

        private Long check(long value) throws InvalidValueException {
            if (value < min || value > max) {
                throw new InvalidValueException("is out of range");
            }
            return value;
        }
    }

    /** A finite decimal number within [min, max]; kept as a Double. */
    record Decimal(double min, double max) implements ValueType {
        private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");

        @Override
        public String allowed() {
            return "use a number from " + plain(min) + " to " + plain(max);
        }

        @Override
        public Object parse(String text) throws InvalidValueException {
            String trimmed = text.trim();
            if (!NUMBER.matcher(trimmed).matches()) {
                throw new InvalidValueException("is not a number");
            }
            return check(Double.parseDouble(trimmed));
        }

        @Override
        public Object fromToml(JsonNode node) throws InvalidValueException {
            if (!node.isNumber()) {
                throw wrongType(node);
            }
            return check(node.doubleValue());
        }

        private Double check(double value) throws InvalidValueException {
            if (!Double.isFinite(value) || value < min || value > max) {
                throw new InvalidValueException("is out of range");
            }
            return value;
        }

        /** {@code 0.8}, {@code 2}: no trailing zeros, no exponent. */
        static String plain(double value) {
            return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
        }
    }

    /** One of a fixed set of lowercase words, matched case-insensitively; kept lowercase. */
    record Choice(List<String> choices) implements Textual {
        public Choice {
            choices = List.copyOf(Objects.requireNonNull(choices, "choices"));
        }

        @Override
        public String allowed() {
            return "use one of: " + String.join(", ", choices);
        }

        @Override
        public Object parse(String text) throws InvalidValueException {
            String word = text.trim().toLowerCase(Locale.ROOT);
            if (!choices.contains(word)) {
                throw new InvalidValueException("is not a valid choice");
            }
            return word;
        }
    }

    /** Words separated by single spaces; tabs, newlines and other control characters are refused. */
    record CommandPrefix() implements Textual {
        private static final Pattern CONTROL = Pattern.compile("\\p{Cntrl}");

        @Override
        public String allowed() {
            return "use a command prefix such as \"git status\" (\"*\" matches every command)";
        }

        @Override
        public Object parse(String text) throws InvalidValueException {
            if (CONTROL.matcher(text).find()) {
                throw new InvalidValueException("contains a control character");
            }
            if (text.isBlank()) {
                throw new InvalidValueException("is empty");
            }
            return text.strip().replaceAll(" +", " ");
        }
    }

    record VariableName() implements Textual {
        private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");

        @Override
        public String allowed() {
            return "use the name of an environment variable such as \"GOPATH\" (letters, digits, _; not a digit first)";
        }

        @Override
        public Object parse(String text) throws InvalidValueException {
            if (!NAME.matcher(text.strip()).matches()) {
                throw new InvalidValueException("is not the name of an environment variable");
            }
            return text.strip();
        }
    }

    /**
     * A list. In a file it must be a TOML array; in an env var or a flag it is comma-separated
     * ({@code ls,git status}) or a TOML array ({@code ["a,b", "c"]}, {@code []} for none). Every element
     * is checked by {@code element}; an empty element (a stray comma) is refused, never skipped.
     */
    record ListOf(ValueType element, String plural) implements ValueType {
        public ListOf {
            Objects.requireNonNull(element, "element");
            Objects.requireNonNull(plural, "plural");
        }

        @Override
        public String allowed() {
            return "use an array of " + plural + " such as [\"a\", \"b\"]"
                    + " (env vars and flags: comma-separated, or [] for none)";
        }

        @Override
        public Object parse(String text) throws InvalidValueException {
            String trimmed = text.strip();
            if (trimmed.startsWith("[")) {
                return fromToml(TomlFiles.parseValue(trimmed));
            }
            List<Object> values = new ArrayList<>();
            String[] parts = trimmed.split(",", -1);
            for (int i = 0; i < parts.length; i++) {
                values.add(elementOf(i, parts[i].strip()));
            }
            return List.copyOf(values);
        }

        private Object elementOf(int index, String text) throws InvalidValueException {
            try {
                return element.parse(text);
            } catch (InvalidValueException e) {
                throw new InvalidValueException("has element " + (index + 1) + " that " + e.reason());
            }
        }

        @Override
        public Object fromToml(JsonNode node) throws InvalidValueException {
            if (!node.isArray()) {
                throw wrongType(node);
            }
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < node.size(); i++) {
                try {
                    values.add(element.fromToml(node.get(i)));
                } catch (InvalidValueException e) {
                    throw new InvalidValueException("has element " + (i + 1) + " that " + e.reason());
                }
            }
            return List.copyOf(values);
        }

        /** {@code ["rm -rf /", "mkfs"]}: TOML, so it can be pasted into agent.toml. */
        @Override
        public String display(Object value) {
            StringJoiner joined = new StringJoiner(", ", "[", "]");
            for (Object item : (List<?>) value) {
                joined.add(quoted(String.valueOf(item)));
            }
            return joined.toString();
        }

        static String quoted(String text) {
            StringBuilder out = new StringBuilder("\"");
            for (char c : text.toCharArray()) {
                switch (c) {
                    case '"' -> out.append("\\\"");
                    case '\\' -> out.append("\\\\");
                    default -> out.append(c);
                }
            }
            return out.append('"').toString();
        }
    }

    /** An array of tables; each entry's fields are checked by their own types, unknown fields are refused. */
    record Tables(String what, List<Field> fields) implements ValueType {
        public Tables {
            Objects.requireNonNull(what, "what");
            fields = List.copyOf(fields);
        }

        @Override
        public String allowed() {
            StringJoiner names = new StringJoiner(", ");
            fields.forEach(f -> names.add(f.name() + (f.required() ? " (required)" : "")));
            return "use an array of " + what + " tables with the fields " + names + " (see agent.example.toml)";
        }

        @Override
        public Object parse(String text) throws InvalidValueException {
            return fromToml(TomlFiles.parseValue(text.strip()));
        }

        @Override
        public Object fromToml(JsonNode node) throws InvalidValueException {
            if (!node.isArray()) {
                throw wrongType(node);
            }
            List<Object> entries = new ArrayList<>();
            for (int i = 0; i < node.size(); i++) {
                entries.add(entry(i + 1, node.get(i)));
            }
            return List.copyOf(entries);
        }

        private java.util.Map<String, Object> entry(int n, JsonNode node) throws InvalidValueException {
            if (!node.isObject()) {
                throw new InvalidValueException("has entry " + n + " that is not a table");
            }
            java.util.Map<String, Object> out = new java.util.LinkedHashMap<>();
            for (java.util.Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                Field field = fields.stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow(() ->
                        new InvalidValueException("has entry " + n + " with the unknown field " + name));
                try {
                    out.put(name, field.type().fromToml(node.get(name)));
                } catch (InvalidValueException e) {
                    throw new InvalidValueException("has entry " + n + " whose " + name + " " + e.reason());
                }
            }
            for (Field f : fields) {
                if (f.required() && !out.containsKey(f.name())) {
                    throw new InvalidValueException("has entry " + n + " without " + f.name());
                }
            }
            return java.util.Collections.unmodifiableMap(out);
        }

        /** {@code [{id = "backup", model = "gpt-4o-mini"}]}: TOML, so it can be pasted into agent.toml. */
        @Override
        public String display(Object value) {
            StringJoiner entries = new StringJoiner(", ", "[", "]");
            for (Object item : (List<?>) value) {
                StringJoiner entry = new StringJoiner(", ", "{", "}");
                ((java.util.Map<?, ?>) item).forEach((name, v) -> {
                    ValueType type = fields.stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow().type();
                    entry.add(name + " = " + inline(type, v));
                });
                entries.add(entry.toString());
            }
            return entries.toString();
        }

        private static String inline(ValueType type, Object v) {
            if (type instanceof Options || type instanceof ListOf) return type.display(v);
            if (type instanceof HttpUrl) return ListOf.quoted(Secrets.redactUrl((String) v));
            if (v instanceof String text) return ListOf.quoted(text);
            return type.display(v);
        }
    }

    /** A table of plain values: strings, whole and decimal numbers, booleans; nested tables and arrays refused. */
    record Options() implements ValueType {
        @Override
        public String allowed() {
            return "use a table of plain values such as { num_ctx = 8192, top_k = 40 }";
        }

        @Override
        public Object parse(String text) throws InvalidValueException {
            return fromToml(TomlFiles.parseValue(text.strip()));
        }

        @Override
        public Object fromToml(JsonNode node) throws InvalidValueException {
            if (!node.isObject()) {
                throw wrongType(node);
            }
            java.util.Map<String, Object> out = new java.util.LinkedHashMap<>();
            for (java.util.Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                JsonNode v = node.get(name);
                if (v.isTextual()) out.put(name, v.textValue());
                else if (v.isBoolean()) out.put(name, v.booleanValue());
                else if (v.isIntegralNumber() && v.canConvertToLong()) out.put(name, v.longValue());
                else if (v.isNumber() && Double.isFinite(v.doubleValue())) out.put(name, v.doubleValue());
                else throw new InvalidValueException("has " + name + " that is not a string, number or boolean");
            }
            return java.util.Collections.unmodifiableMap(out);
        }

        /** <code>{num_ctx = 8192, stop = "x"}</code>; {@code {}} when empty. */
        @Override
        public String display(Object value) {
            StringJoiner out = new StringJoiner(", ", "{", "}");
            ((java.util.Map<?, ?>) value).forEach((name, v) -> out.add(name + " = "
                    + (v instanceof String text ? ListOf.quoted(text) : String.valueOf(v))));
            return out.toString();
        }
    }

    /** A whole number of failures (1 to 100), or a number of seconds written with an s (1s to 86400s). */
    record FailuresOrSeconds() implements ValueType {
        private static final Pattern COUNT = Pattern.compile("\\d{1,3}");
        private static final Pattern SECONDS = Pattern.compile("(\\d{1,5})\\s*s");

        @Override
        public String allowed() {
            return "use a number of failures in a row from 1 to 100 (3), or seconds from 1s to 86400s (\"90s\")";
        }

        @Override
        public Object parse(String text) throws InvalidValueException {
            String t = text.strip().toLowerCase(Locale.ROOT);
            java.util.regex.Matcher seconds = SECONDS.matcher(t);
            if (COUNT.matcher(t).matches()) {
                int n = Integer.parseInt(t);
                if (n < 1 || n > 100) throw new InvalidValueException("is out of range");
                return FailoverAfter.failures(n);
            }
            if (seconds.matches()) {
                long s = Long.parseLong(seconds.group(1));
                if (s < 1 || s > 86_400) throw new InvalidValueException("is out of range");
                return FailoverAfter.seconds(s);
            }
            throw new InvalidValueException("is neither a number of failures nor seconds");
        }

        @Override
        public Object fromToml(JsonNode node) throws InvalidValueException {
            if (node.isIntegralNumber()) return parse(node.asText());
            if (node.isTextual()) return parse(node.textValue());
            throw wrongType(node);
        }

        @Override
        public String display(Object value) {
            return value.toString();
        }
    }
}
