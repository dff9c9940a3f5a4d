package dev.hmpagent.commands;

import dev.hmpagent.text.Json;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The arguments a command takes, in the order a model should write them: what context 0 shows as one compact line
 * and what native tool calling offers as a JSON Schema.
 */
public record Signature(List<Param> params) {
    private static final ObjectMapper JSON = Json.mapper();

    public Signature {
        params = List.copyOf(Objects.requireNonNull(params, "params"));
        Set<String> seen = new HashSet<>();
        for (Param p : params) {
            for (String name : names(p)) {
                if (!seen.add(name)) throw new IllegalArgumentException("argument name used twice: " + name);
            }
        }
    }

    public static Signature of(Param... params) {
        return new Signature(List.of(params));
    }

    /**
     * A signature written in the notation of {@link #line}, with aliases after a bar: {@code "path|filename: string,
     * content|text: string, append?: boolean"} (a {@code ?} makes a parameter optional; types as in JSON Schema:
     * string, integer, number, boolean, array, object). A spec that does not read throws.
     */
    public static Signature parse(String spec) {
        List<Param> out = new ArrayList<>();
        if (spec.isBlank()) return new Signature(out);
        for (String item : spec.split(",")) {
            int colon = item.indexOf(':');
            if (colon < 0) throw new IllegalArgumentException("no type in \"" + item.strip() + "\" of " + spec);
            String names = item.substring(0, colon).strip();
            boolean optional = names.endsWith("?");
            List<String> all = List.of((optional ? names.substring(0, names.length() - 1) : names).split("\\|"));
            Param.Kind kind = Param.Kind.of(item.substring(colon + 1).strip());
            out.add(new Param(all.get(0).strip(), kind, !optional, all.subList(1, all.size()).stream().map(String::strip).toList()));
        }
        return new Signature(out);
    }

    /** Every name an argument is accepted under, its own first. */
    private static List<String> names(Param p) {
        List<String> out = new ArrayList<>(List.of(p.name()));
        out.addAll(p.aliases());
        return out;
    }

    /**
     * A copy of {@code args} in which each alias a model wrote is renamed to its parameter's name, where the
     * parameter itself is not given (then the alias stays as written and the handler ignores it); every other field
     * is kept, in its place.
     */
    public ObjectNode normalise(ObjectNode args) {
        Map<String, String> renames = new HashMap<>();
        for (Param p : params) {
            for (String alias : p.aliases()) {
                if (args.has(alias) && !args.has(p.name()) && !renames.containsValue(p.name())) renames.put(alias, p.name());
            }
        }
        if (renames.isEmpty()) return args.deepCopy();
        ObjectNode out = args.objectNode();
        args.fields().forEachRemaining(f -> out.set(renames.getOrDefault(f.getKey(), f.getKey()), f.getValue().deepCopy()));
        return out;
    }

    /** The aliases, as {@code filename → path, text → content}; empty when there are none. */
    public String aliasLine() {
        List<String> out = new ArrayList<>();
        params.forEach(p -> p.aliases().forEach(a -> out.add(a + " → " + p.name())));
        return String.join(", ", out);
    }

    /**
     * A signature read from an args example ({@code {"path": "notes/plan.md", "limit": 10}}): one optional
     * parameter per field, its kind from the example's value. An example that is not a JSON object gives no
     * parameters.
     */
    public static Signature fromExample(String argsExample) {
        JsonNode node;
        try {
            node = JSON.readTree(argsExample);
        } catch (java.io.IOException e) {
            return new Signature(List.of());
        }
        if (node == null || !node.isObject()) return new Signature(List.of());
        List<Param> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            out.add(Param.optional(field.getKey(), kindOf(field.getValue())));
        }
        return new Signature(out);
    }

    private static Param.Kind kindOf(JsonNode value) {
        if (value.isIntegralNumber()) return Param.Kind.INTEGER;
        if (value.isNumber()) return Param.Kind.NUMBER;
        if (value.isBoolean()) return Param.Kind.BOOLEAN;
        if (value.isArray()) return Param.Kind.LIST;
        if (value.isObject()) return Param.Kind.OBJECT;
        return Param.Kind.STRING;
    }

    /** One compact line: {@code file_write(path: string, content: string, append?: boolean)}. */
    public String line(String type) {
        StringBuilder sb = new StringBuilder(type).append('(');
        for (int i = 0; i < params.size(); i++) {
            Param p = params.get(i);
            if (i > 0) sb.append(", ");
            sb.append(p.name()).append(p.required() ? "" : "?").append(": ").append(p.kind().jsonType());
        }
        return sb.append(')').toString();
    }

    /** The JSON Schema of the args object: {@code {"type": "object", "properties": {...}, "required": [...]}}. */
    public ObjectNode jsonSchema(JsonNodeFactory nodes) {
        ObjectNode schema = nodes.objectNode().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        ArrayNode required = nodes.arrayNode();
        for (Param p : params) {
            ObjectNode property = properties.putObject(p.name());
            if (p.kind() != Param.Kind.ANY) property.put("type", p.kind().jsonType());
            if (p.kind() == Param.Kind.LIST) property.putObject("items").put("type", "string");
            if (p.required()) required.add(p.name());
        }
        if (!required.isEmpty()) schema.set("required", required);
        return schema;
    }
}
