package dev.hmpagent.commands;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Rewrites the shapes models write a command in into the one {@link BlockReader} checks: {@code type},
 * {@code cmd_id}, {@code args}, {@code description} and the extra fields. Knows no command: argument names
 * inside {@code args} are left as they are (the registry's aliases handle those). Pure and deterministic;
 * {@link CommandBlockParser} lists the rules.
 */
final class CommandShape {

    /** Fields that name the command when {@code type} does not, in the order they are tried. */
    static final List<String> TYPE_FIELDS = List.of("command", "name", "tool", "tool_name", "action", "function");
    /** Fields that hold the arguments when {@code args} does not, in the order they are tried. */
    static final List<String> ARGS_FIELDS = List.of("arguments", "parameters", "input", "params", "tool_input",
            "action_input");
    /** Values of {@code type} that say "a tool call" rather than which command (OpenAI, Anthropic). */
    static final Set<String> CALL_TYPES = Set.of("function", "tool_use", "tool_call", "function_call");
    /** Fields of an object that wraps the call itself (OpenAI {@code tool_calls} items, legacy function calls). */
    private static final List<String> WRAPPERS = List.of("function", "function_call");
    /** Fields of an object that holds the list of commands (JSON mode answers, OpenAI message shape). */
    private static final List<String> LISTS = List.of("commands", "tool_calls");
    /** Fields that never become arguments in the flat shape. */
    private static final Set<String> ENVELOPE = Set.of("type", "cmd_id", "args");
    /** A command name: one word. */
    private static final Pattern ONE_WORD = Pattern.compile("\\S+");

    private final ObjectReader reader;
    private final JsonNodeFactory nodes;

    /**
     * @param reader reads an arguments string: lenient, nesting capped, raw line breaks allowed, nothing
     *               after the value
     */
    CommandShape(ObjectReader reader, JsonNodeFactory nodes) {
        this.reader = reader;
        this.nodes = nodes;
    }

    /**
     * The commands {@code node} holds when it is an object that wraps a list of them
     * ({@code {"commands": [...]}}, {@code {"tool_calls": [...]}}) and names no command itself.
     */
    Optional<JsonNode> list(JsonNode node) {
        if (!node.isObject() || typeField(node) != null) return Optional.empty();
        for (String field : LISTS) {
            JsonNode list = node.get(field);
            if (list != null && list.isArray()) return Optional.of(list);
        }
        return Optional.empty();
    }

    /** {@code node} in the checked shape; anything but an object is given back as it is. */
    JsonNode normalise(JsonNode node) {
        if (!node.isObject()) return node;
        ObjectNode command = unwrap((ObjectNode) node);
        String typeField = typeField(command);
        if (typeField == null) return command;
        ObjectNode out = nodes.objectNode();
        out.set("type", command.get(typeField));
        copy(command, out, "cmd_id");
        copy(command, out, "description");
        String argsField = argsField(command);
        if (argsField != null) {
            out.set("args", argsOf(command.get(argsField)));
            for (Map.Entry<String, JsonNode> field : command.properties()) {
                String name = field.getKey();
                if (!name.equals(typeField) && !name.equals(argsField) && !out.has(name)) out.set(name, field.getValue());
            }
            return out;
        }
        ObjectNode args = nodes.objectNode();
        for (Map.Entry<String, JsonNode> field : command.properties()) {
            String name = field.getKey();
            if (!name.equals(typeField) && !ENVELOPE.contains(name)) args.set(name, field.getValue());
        }
        if (!args.isEmpty()) out.set("args", args);
        return out;
    }

    /** The call object inside an OpenAI-style wrapper, keeping the outer {@code cmd_id}; else {@code command}. */
    private static ObjectNode unwrap(ObjectNode command) {
        if (hasCommandType(command)) return command;
        for (String field : WRAPPERS) {
            JsonNode inner = command.get(field);
            if (inner != null && inner.isObject()) {
                ObjectNode call = ((ObjectNode) inner).deepCopy();
                if (!call.has("cmd_id") && command.has("cmd_id")) call.set("cmd_id", command.get("cmd_id"));
                return call;
            }
        }
        return command;
    }

    /** True when {@code type} is there and is not one of {@link #CALL_TYPES}. */
    private static boolean hasCommandType(JsonNode command) {
        JsonNode type = command.get("type");
        return type != null && !type.isNull() && !(type.isTextual() && CALL_TYPES.contains(type.asText().strip()));
    }

    /** The field that names the command, or null when none does. */
    private static String typeField(JsonNode command) {
        if (hasCommandType(command)) return "type";
        for (String field : TYPE_FIELDS) {
            JsonNode value = command.get(field);
            if (value != null && value.isTextual() && ONE_WORD.matcher(value.asText().strip()).matches()) return field;
        }
        return command.has("type") && !command.get("type").isNull() ? "type" : null;
    }

    /**
     * The field that holds the arguments: {@code args} when present, else the first alias holding an object
     * or a string that starts like one (one that does not parse is then the error it should be).
     */
    private String argsField(JsonNode command) {
        JsonNode args = command.get("args");
        if (args != null && !args.isNull()) return "args";
        for (String field : ARGS_FIELDS) {
            JsonNode value = command.get(field);
            if (value != null && (value.isObject() || value.isTextual() && value.asText().strip().startsWith("{"))) {
                return field;
            }
        }
        return null;
    }

    /** An arguments value as given, or, for a string that holds a JSON object (OpenAI), that object. */
    private JsonNode argsOf(JsonNode value) {
        if (!value.isTextual() || !value.asText().strip().startsWith("{")) return value;
        try {
            JsonNode parsed = reader.readTree(value.asText());
            return parsed != null && parsed.isObject() ? parsed : value;
        } catch (JsonProcessingException e) {
            return value;
        }
    }

    private static void copy(JsonNode from, ObjectNode to, String field) {
        JsonNode value = from.get(field);
        if (value != null) to.set(field, value);
    }
}
