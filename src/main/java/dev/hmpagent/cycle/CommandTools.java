package dev.hmpagent.cycle;

import dev.hmpagent.text.Json;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandParseError;
import dev.hmpagent.commands.CommandRegistry;
import dev.hmpagent.commands.ParsedCommand;
import dev.hmpagent.commands.ParsedReply;
import dev.hmpagent.llm.ToolCall;
import dev.hmpagent.llm.ToolSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Native tool calling ({@code commands = "tools"}) in the registry's terms: the commands offered as tools, and a
 * reply's tool calls read as the commands of a block. The common families are tools of their own; the rare (compact)
 * families, and whatever would pass {@link #MAX_TOOLS}, are run through one tool, {@value #USE}, that takes a command
 * type and its arguments. A reply with tool calls is kept as its thought plus a {@code # Commands:} block rendering
 * the calls (numbered {@code c-1}, {@code c-2}…, not by the provider's call ids, which never repeat), so context 1,
 * context 2 and the comparison with the previous reply read it as any other reply.
 */
public final class CommandTools {
    /** The most tools offered in one request (OpenAI's cap). */
    public static final int MAX_TOOLS = 128;
    /** The tool that runs any command by its type. */
    public static final String USE = "use";
    /** The names every provider accepts for a tool. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    /** What stands for a dot of a command type in a tool's name (providers accept no dot). */
    private static final String SEPARATOR = "__";
    private static final ObjectMapper JSON = Json.mapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private CommandTools() { }

    /** The tools for {@code registry}: at most {@link #MAX_TOOLS}, {@value #USE} last. */
    public static List<ToolSpec> offered(CommandRegistry registry) {
        return offered(registry, List.of());
    }

    /**
     * The tools for {@code registry}, then {@code late} (commands known only at run time, an MCP server's tools, each
     * with its own JSON Schema and a command type such as {@code mcp.files.read_file}, offered as {@code
     * mcp__files__read_file}), at most {@link #MAX_TOOLS}, {@value #USE} last: a command whose name no provider
     * accepts, or past the cap, runs through {@value #USE}.
     */
    public static List<ToolSpec> offered(CommandRegistry registry, List<ToolSpec> late) {
        List<ToolSpec> tools = new ArrayList<>();
        List<String> rest = new ArrayList<>();
        for (CommandHandler h : registry.all()) {
            boolean rare = registry.familyOf(h.type()).map(registry::compact).orElse(false);
            if (!rare && NAME.matcher(h.type()).matches() && !h.type().equals(USE) && tools.size() < MAX_TOOLS - 1) {
                tools.add(new ToolSpec(h.type(), h.summary(), h.signature().jsonSchema(NODES)));
            } else {
                rest.add(h.type());
            }
        }
        for (ToolSpec t : late) {
            String name = toolName(t.name());
            if (NAME.matcher(name).matches() && tools.size() < MAX_TOOLS - 1) {
                tools.add(new ToolSpec(name, t.description(), t.schema()));
            } else {
                rest.add(t.name());
            }
        }
        tools.add(use(rest));
        return List.copyOf(tools);
    }

    /**
     * Every command of {@code registry}, then {@code late} (an MCP server's tools, named by their command type), each
     * with its arguments' JSON Schema: the commands a JSON reply ({@code commands = "json"}) may hold. No cap and no
     * {@value #USE}: a reply schema names each command, the rare ones too, by its type as a block would.
     */
    public static List<ToolSpec> commands(CommandRegistry registry, List<ToolSpec> late) {
        List<ToolSpec> all = new ArrayList<>();
        registry.all().forEach(h -> all.add(new ToolSpec(h.type(), h.summary(), h.signature().jsonSchema(NODES))));
        all.addAll(late);
        return List.copyOf(all);
    }

    /** A dotted command type as a tool's name ({@code mcp.files.read} → {@code mcp__files__read}); others as they are. */
    static String toolName(String type) {
        return type.contains(".") && !type.contains(SEPARATOR) ? type.replace(".", SEPARATOR) : type;
    }

    /** A tool's name as its command type: the reverse of {@link #toolName}. */
    static String commandType(String toolName) {
        return toolName.startsWith("mcp" + SEPARATOR) ? toolName.replace(SEPARATOR, ".") : toolName;
    }

    private static ToolSpec use(List<String> rest) {
        ObjectNode schema = NODES.objectNode().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        properties.putObject("type").put("type", "string").put("description", "the command type to run");
        properties.putObject("args").put("type", "object").put("description", "that command's arguments");
        schema.putArray("required").add("type");
        String others = rest.isEmpty() ? "" : " Commands without a tool of their own: " + String.join(", ", rest) + ".";
        return new ToolSpec(USE, "Runs any command by its type with its arguments: {\"type\": \"diary_search\", \"args\":"
                + " {...}}." + others + " help with {\"type\": \"<command>\"} gives a command's arguments.", schema);
    }

    /** A reply's text and tool calls as the reply kept ({@code text}) and its commands ({@code parsed}). */
    record Read(String text, ParsedReply parsed) { }

    /** Reads {@code calls} as commands, in order; a call whose arguments are not a JSON object is a parse error. */
    static Read read(String thought, List<ToolCall> calls) {
        List<ParsedCommand> commands = new ArrayList<>();
        List<CommandParseError> errors = new ArrayList<>();
        ArrayNode block = NODES.arrayNode();
        for (int i = 0; i < calls.size(); i++) {
            ToolCall call = calls.get(i);
            int position = i + 1;
            // the provider's call ids differ on every reply: kept, they would hide a reply that repeats the last one
            String cmdId = "c-" + position;
            ObjectNode shown = block.addObject().put("cmd_id", cmdId).put("type", commandType(call.name()));
            JsonNode args = arguments(call.argumentsJson());
            if (args == null || !args.isObject()) {
                shown.put("args", call.argumentsJson());
                errors.add(new CommandParseError(position, "the arguments of tool call " + call.name() + " are "
                        + (args == null ? "not valid JSON" : "not a JSON object") + ": send them as one JSON object,"
                        + " e.g. {\"text\": \"...\"}", call.argumentsJson()));
                continue;
            }
            ObjectNode given = (ObjectNode) args;
            String type = commandType(call.name());
            if (type.equals(USE)) {
                type = given.path("type").asText("").strip();
                given = given.path("args").isObject() ? (ObjectNode) given.path("args") : NODES.objectNode();
                shown.put("type", type);
            }
            shown.set("args", given);
            if (type.isEmpty()) {
                String who = call.name().isEmpty() ? "a command" : "tool call use";
                errors.add(new CommandParseError(position, who + " needs \"type\", the command to run, and"
                        + " \"args\", its arguments: {\"type\": \"help\", \"args\": {}}", call.argumentsJson()));
                continue;
            }
            commands.add(new ParsedCommand(position, cmdId, type, given, "", NODES.objectNode()));
        }
        String blockText = "```json\n" + lines(block) + "\n```";
        String kept = thought.strip();
        String text = (kept.isEmpty() ? "" : kept + "\n\n") + "# Commands:\n" + blockText + "\n# End commands";
        return new Read(text, new ParsedReply(kept, commands, errors, true, blockText));
    }

    /** The arguments as JSON (blank is an empty object), or null when they are not JSON. */
    private static JsonNode arguments(String json) {
        if (json.isBlank()) return NODES.objectNode();
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /** The array one command a line, as a model would write it. */
    private static String lines(ArrayNode block) {
        List<String> items = new ArrayList<>();
        block.forEach(item -> items.add("  " + item));
        return "[\n" + String.join(",\n", items) + "\n]";
    }
}
