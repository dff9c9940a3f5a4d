package dev.hmpagent.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The JSON Schema of a whole reply for an entry with {@code commands = "json"}: {@code {"thought": string, "commands":
 * [item, …]}}, each item {@code {"type": <one command type>, "args": <that command's arguments>}} (an {@code anyOf}
 * over the commands, the type an {@code enum} of one name, which every server's grammar takes). It is kept within
 * what OpenAI's strict mode accepts: every object closed ({@code additionalProperties: false}) and every property
 * required, an optional argument nullable instead (the model writes {@code null} for it, and {@link JsonReply} drops
 * it). An argument schema that cannot be closed (a free-form object: table_insert's row, table_query's where,
 * notes_mode's filter, an MCP tool's) leaves the schema open there and {@link #strict()} false, as a strict server
 * would refuse it: llama.cpp's server, Ollama, vLLM and LM Studio keep to the schema by grammar either way, OpenAI
 * then takes it as guidance.
 */
public record ReplySchema(JsonNode schema, boolean strict) {
    /** No schema: the entry is not asked for a JSON reply. */
    public static final ReplySchema NONE = new ReplySchema(JsonNodeFactory.instance.nullNode(), false);
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** The JSON types an argument of any type ({@code Param.Kind.ANY}, no {@code type} in its schema) may have. */
    private static final List<String> ANY = List.of("string", "number", "boolean");

    public ReplySchema {
        schema = Objects.requireNonNull(schema, "schema").deepCopy();
    }

    /** A copy of the schema. */
    @Override
    public JsonNode schema() { return schema.deepCopy(); }

    /** Whether there is a schema to send. */
    public boolean any() { return schema.isObject(); }

    /** The reply schema whose commands are {@code commands}: each tool's name is a command type, its schema the args. */
    public static ReplySchema of(List<ToolSpec> commands) {
        ArrayNode items = NODES.arrayNode();
        boolean[] closed = {true};
        for (ToolSpec c : commands) {
            ObjectNode item = NODES.objectNode();
            ObjectNode type = NODES.objectNode().put("type", "string");
            type.putArray("enum").add(c.name());
            item.set("type", type);
            item.set("args", strict(c.schema(), closed));
            items.add(closedObject(item, List.of("type", "args")));
        }
        ObjectNode commandList = NODES.objectNode().put("type", "array");
        commandList.putObject("items").set("anyOf", items);
        ObjectNode reply = NODES.objectNode();
        reply.putObject("thought").put("type", "string");
        reply.set("commands", commandList);
        return new ReplySchema(closedObject(reply, List.of("thought", "commands")), closed[0]);
    }

    /** {@code {"type": "object", "properties": …, "required": [all of them], "additionalProperties": false}}. */
    private static ObjectNode closedObject(ObjectNode properties, List<String> names) {
        ObjectNode object = NODES.objectNode().put("type", "object");
        object.set("properties", properties);
        ArrayNode required = object.putArray("required");
        names.forEach(required::add);
        object.put("additionalProperties", false);
        return object;
    }

    /**
     * {@code schema} as strict mode wants it: an object with properties closed, each property required and those that
     * were optional nullable, recursively; an object whose properties are not given (free-form) stays open and clears
     * {@code closed[0]}.
     */
    private static JsonNode strict(JsonNode schema, boolean[] closed) {
        if (!schema.isObject()) return schema;
        ObjectNode out = ((ObjectNode) schema).deepCopy();
        if (!out.has("type") && !out.has("anyOf") && !out.has("enum")) typeList(out, ANY);
        if (out.has("items")) out.set("items", strict(out.get("items"), closed));
        if (!"object".equals(out.path("type").asText())) return out;
        JsonNode properties = out.path("properties");
        if (!properties.isObject()) {
            if (!out.path("additionalProperties").isBoolean() || out.path("additionalProperties").asBoolean()) {
                closed[0] = false;
            }
            return out;
        }
        List<String> required = new ArrayList<>();
        out.path("required").forEach(r -> required.add(r.asText()));
        ObjectNode strictProperties = NODES.objectNode();
        ArrayNode all = NODES.arrayNode();
        for (Map.Entry<String, JsonNode> p : properties.properties()) {
            JsonNode property = strict(p.getValue(), closed);
            strictProperties.set(p.getKey(), required.contains(p.getKey()) ? property : nullable(property));
            all.add(p.getKey());
        }
        out.set("properties", strictProperties);
        out.set("required", all);
        out.put("additionalProperties", false);
        return out;
    }

    /** {@code property} that may also be {@code null}: {@code "type": [t, "null"]}, or a null branch of its anyOf. */
    private static JsonNode nullable(JsonNode property) {
        if (!property.isObject()) return property;
        ObjectNode out = (ObjectNode) property;
        JsonNode type = out.path("type");
        if (type.isTextual()) {
            typeList(out, List.of(type.asText(), "null"));
        } else if (type.isArray()) {
            List<String> types = new ArrayList<>();
            type.forEach(t -> types.add(t.asText()));
            if (!types.contains("null")) types.add("null");
            typeList(out, types);
        } else if (out.path("anyOf").isArray()) {
            ((ArrayNode) out.get("anyOf")).addObject().put("type", "null");
        }
        if (out.path("enum").isArray()) ((ArrayNode) out.get("enum")).addNull();
        return out;
    }

    private static void typeList(ObjectNode schema, List<String> types) {
        ArrayNode list = schema.putArray("type");
        types.forEach(list::add);
    }
}
