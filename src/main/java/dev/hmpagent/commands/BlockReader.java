package dev.hmpagent.commands;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Reads the JSON of one command block into commands and errors, numbering candidates as they come. One
 * instance per block; see {@link CommandBlockParser} for the rules.
 */
final class BlockReader {

    private static final String HINT = "send each command as a JSON object with \"type\" and \"args\"";

    private final ObjectReader reader;
    private final ObjectReader multiLineReader;
    private final JsonNodeFactory nodes;
    private final CommandShape shape;

    private final List<ParsedCommand> commands = new ArrayList<>();
    private final List<CommandParseError> errors = new ArrayList<>();
    private final Map<String, Integer> idPositions = new HashMap<>();
    private int position;
    private int errorsLeftOut;
    private long steps;

    BlockReader(ObjectReader reader, ObjectReader multiLineReader, JsonNodeFactory nodes) {
        this.reader = reader;
        this.multiLineReader = multiLineReader;
        this.nodes = nodes;
        this.shape = new CommandShape(multiLineReader, nodes);
    }

    /** The valid commands read so far, in block order. */
    List<ParsedCommand> commands() { return commands; }

    /**
     * The errors found so far, in block order: all of them when there are at most
     * {@link CommandBlockParser#MAX_ERRORS}, else the first ones and one saying how many more were left out.
     */
    List<CommandParseError> errors() {
        if (errorsLeftOut == 0) return errors;
        List<CommandParseError> kept = new ArrayList<>(errors.subList(0, CommandBlockParser.MAX_ERRORS - 1));
        int more = errors.size() - kept.size() + errorsLeftOut;
        kept.add(new CommandParseError(0, more + " more problems in the command block were left out (at most "
                + CommandBlockParser.MAX_ERRORS + " are listed): fix the ones above and send the block again", ""));
        return kept;
    }

    /** Reads one piece of the block: a run of objects and arrays, maybe with text between them. */
    void scan(String s) {
        steps += BlockSplitter.split(s, this);
    }

    /** Characters the splitter looked at so far, for tests that reading stays linear in the block. */
    long steps() { return steps; }

    /**
     * Reads a closed outermost array as a whole; true when it parsed (its elements are then commands or
     * errors), false when it did not and must be read object by object.
     */
    boolean wholeArray(String text) {
        try {
            JsonNode node = reader.readTree(text);
            if (node == null || !node.isArray()) return false;
            for (JsonNode element : node) element(element);
            return true;
        } catch (JsonProcessingException e) {
            return false;
        }
    }

    /**
     * Reads a whole piece of the block that holds raw line breaks inside strings, as one array or object;
     * true when it is one valid value (its commands are then read), false when it must be walked.
     */
    boolean multiLine(String text) {
        try {
            JsonNode node = multiLineReader.readTree(text);
            if (node == null || !(node.isArray() || node.isObject())) return false;
            if (node.isArray()) {
                for (JsonNode element : node) element(element);
            } else {
                read(++position, node, text);
            }
            return true;
        } catch (JsonProcessingException e) {
            return false;
        }
    }

    /** One closed object, nested no deeper than the limit. */
    void object(String text) {
        int pos = ++position;
        try {
            read(pos, reader.readTree(text), text);
        } catch (JsonProcessingException e) {
            error(pos, "command #" + pos + " is not valid JSON (" + describe(e) + "): " + HINT, text);
        }
    }

    /** One object that is never closed. */
    void unterminated(String excerpt) {
        int pos = ++position;
        error(pos, "command #" + pos + " is not valid JSON (unterminated object: a '{' is never closed): "
                + "close every '{' and " + HINT, excerpt);
    }

    /** One object nested deeper than the limit; it is not parsed. */
    void tooDeep(int depth, String excerpt) {
        int pos = ++position;
        error(pos, "command #" + pos + " nests brackets " + depth + " deep (at most " + BlockSplitter.MAX_DEPTH
                + " allowed): " + HINT + ", with flatter \"args\"", excerpt);
    }

    /** A problem of the block rather than of one command (stray text, an unclosed or too deep array). */
    void blockError(String message, String excerpt) {
        error(0, message, excerpt);
    }

    /** A parsed object at {@code pos}: one command, or the commands of a list it wraps. */
    private void read(int pos, JsonNode node, String text) {
        Optional<JsonNode> list = node == null ? Optional.empty() : shape.list(node);
        if (list.isEmpty()) {
            command(pos, node, () -> text);
            return;
        }
        position--;
        for (JsonNode element : list.get()) element(element);
    }

    /** One element of a list; its text is made only for an error's excerpt, never for a command that reads well. */
    private void element(JsonNode element) {
        command(++position, element, element::toString);
    }

    private void command(int pos, JsonNode given, Supplier<String> excerpt) {
        JsonNode node = given == null ? null : shape.normalise(given);
        String typeName = typeName(pos, node, excerpt);
        if (typeName == null) return;
        String prefix = "command #" + pos + " (\"" + typeName + "\")";
        String cmdId = cmdId(pos, prefix, node.get("cmd_id"), excerpt);
        if (cmdId == null) return;
        ObjectNode args = args(pos, prefix, node.get("args"), excerpt);
        if (args == null) return;
        JsonNode descNode = node.get("description");
        String description = descNode == null || descNode.isNull() ? ""
                : descNode.isTextual() ? descNode.asText() : descNode.toString();
        Integer earlier = idPositions.get(cmdId);
        if (earlier != null) {
            error(pos, prefix + " reuses cmd_id \"" + cmdId + "\" of command #" + earlier
                    + ": give each command its own cmd_id", excerpt);
            return;
        }
        ObjectNode extra = nodes.objectNode();
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            switch (field.getKey()) {
                case "type", "cmd_id", "args", "description" -> { }
                default -> extra.set(field.getKey(), field.getValue());
            }
        }
        idPositions.put(cmdId, pos);
        commands.add(new ParsedCommand(pos, cmdId, typeName, args, description, extra));
    }

    /** The command's type, or null when the element has none fit to be one (the error is recorded). */
    private String typeName(int pos, JsonNode node, Supplier<String> excerpt) {
        String prefix = "command #" + pos;
        if (node == null || !node.isObject()) {
            error(pos, prefix + " is not a JSON object (found " + kind(node) + "): " + HINT, excerpt);
            return null;
        }
        JsonNode type = node.get("type");
        if (type == null || type.isNull()) {
            error(pos, prefix + " has no \"type\": add \"type\" with the command name,"
                    + " e.g. \"type\": \"diary_entry\"", excerpt);
            return null;
        }
        if (!type.isTextual() || type.asText().isBlank()) {
            error(pos, prefix + " has a \"type\" that is not a non-empty string (found " + kind(type)
                    + "): set \"type\" to the command name, e.g. \"diary_entry\"", excerpt);
            return null;
        }
        return type.asText().strip();
    }

    /** The command's id ("auto-N" when it has none), or null when it is not a string (the error is recorded). */
    private String cmdId(int pos, String prefix, JsonNode id, Supplier<String> excerpt) {
        if (id == null || id.isNull() || (id.isTextual() && id.asText().isBlank())) return "auto-" + pos;
        if (id.isTextual() || id.isIntegralNumber()) return id.asText().strip();
        error(pos, prefix + " has a \"cmd_id\" that is not a string (found " + kind(id)
                + "): use a short string like \"c-1\", or leave it out", excerpt);
        return null;
    }

    /** The command's arguments (empty when absent), or null when they are not an object (the error is recorded). */
    private ObjectNode args(int pos, String prefix, JsonNode argsNode, Supplier<String> excerpt) {
        if (argsNode == null || argsNode.isNull()) return nodes.objectNode();
        if (argsNode.isObject()) return (ObjectNode) argsNode;
        error(pos, prefix + " has \"args\" that is not a JSON object (found " + kind(argsNode)
                + "): put the arguments in an object, e.g. \"args\": {\"text\": \"...\"}", excerpt);
        return null;
    }

    /** {@link #error(int, String, String)}, the excerpt made only when the error is kept. */
    private void error(int pos, String message, Supplier<String> excerpt) {
        if (errors.size() < CommandBlockParser.MAX_ERRORS) error(pos, message, excerpt.get());
        else error(pos, message, "");
    }

    /** Records an error; past the cap only counts it, so a flood of them costs no excerpts. */
    private void error(int pos, String message, String excerpt) {
        if (errors.size() < CommandBlockParser.MAX_ERRORS) errors.add(new CommandParseError(pos, message, excerpt));
        else errorsLeftOut++;
    }

    private static String kind(JsonNode node) {
        if (node == null || node.isMissingNode()) return "nothing";
        return switch (node.getNodeType()) {
            case ARRAY -> "an array";
            case OBJECT, POJO -> "an object";
            case STRING, BINARY -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            default -> node.getNodeType().name().toLowerCase(Locale.ROOT);
        };
    }

    /** Jackson's reason on one line, with where it happened inside the command's own text. */
    private static String describe(JsonProcessingException e) {
        String reason = e.getOriginalMessage() == null ? "cannot be parsed" : e.getOriginalMessage();
        reason = CommandParseError.oneLine(reason);
        if (reason.length() > 160) reason = reason.substring(0, 157) + "...";
        JsonLocation at = e.getLocation();
        if (at != null && at.getLineNr() > 0) {
            reason = reason + " at line " + at.getLineNr() + " column " + at.getColumnNr();
        }
        return reason;
    }
}
