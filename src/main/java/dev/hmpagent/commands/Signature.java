package dev.hmpagent.commands;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The arguments a command takes, in the order a model should write them: what context 0 shows as one compact line
 * and what native tool calling offers as a JSON Schema.
 */
public record Signature(List<Param> params) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public Signature {
        params = List.copyOf(Objects.requireNonNull(params, "params"));
    }

    public static Signature of(Param... params) {
        return new Signature(List.of(params));
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
            ObjectNode property = properties.putObject(p.name()).put("type", p.kind().jsonType());
            if (p.kind() == Param.Kind.LIST) property.putObject("items").put("type", "string");
            if (p.required()) required.add(p.name());
        }
        if (!required.isEmpty()) schema.set("required", required);
        return schema;
    }
}
