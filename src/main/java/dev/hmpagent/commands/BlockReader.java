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

/**
 * Reads the JSON of one command block into commands and errors, numbering candidates as they come. One
 * instance per block; see {@link CommandBlockParser} for the rules.
 */
final class BlockReader {

    private static final String HINT = "send each command as a JSON object with \"type\" and \"args\"";

    private final ObjectReader reader;
    private final JsonNodeFactory nodes;

    private final List<ParsedCommand> commands = new ArrayList<>();
    private final List<CommandParseError> errors = new ArrayList<>();
    private final Map<String, Integer> idPositions = new HashMap<>();
    private int position;

    BlockReader(ObjectReader reader, JsonNodeFactory nodes) {
        this.reader = reader;
        this.nodes = nodes;
    }

    /** The valid commands read so far, in block order. */
    List<ParsedCommand> commands() { return commands; }

    /** The errors found so far, in block order. */
    List<CommandParseError> errors() { return errors; }

    /** Reads a run of objects and arrays, reporting any text between them. */
    void scan(String s) {
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c) || c == ',') {
                i++;
            } else if (c == '{') {
                int close = matchClose(s, i, '{', '}');
                if (close < 0) {
                    int sibling = nextSiblingStart(s, i);
                    unterminated(sibling < 0 ? s.substring(i) : s.substring(i, sibling));
                    if (sibling < 0) return;
                    i = sibling;
                    continue;
                }
                object(s.substring(i, close));
                i = close;
            } else if (c == '[') {
                int close = matchClose(s, i, '[', ']');
                array(close < 0 ? s.substring(i) : s.substring(i, close), close >= 0);
                if (close < 0) return;
                i = close;
            } else {
                int next = i;
                while (next < s.length() && s.charAt(next) != '{' && s.charAt(next) != '[') next++;
                errors.add(new CommandParseError(0,
                        "text in the command block is not JSON and was ignored: put only JSON command"
                                + " objects between \"# Commands:\" and \"# End commands\"",
                        s.substring(i, next)));
                i = next;
            }
        }
    }

    void array(String text, boolean closed) {
        if (closed) {
            try {
                JsonNode node = reader.readTree(text);
                if (node != null && node.isArray()) {
                    for (JsonNode element : node) element(element, element.toString());
                    return;
                }
            } catch (JsonProcessingException e) {
                // fall through: read the objects one by one
            }
        }
        scan(text.substring(1, closed ? text.length() - 1 : text.length()));
        if (!closed) {
            errors.add(new CommandParseError(0,
                    "the JSON array of commands is not closed: end the array with ']'", text));
        }
    }

    void object(String text) {
        int pos = ++position;
        try {
            JsonNode node = reader.readTree(text);
            command(pos, node, text);
        } catch (JsonProcessingException e) {
            errors.add(new CommandParseError(pos,
                    "command #" + pos + " is not valid JSON (" + describe(e) + "): " + HINT, text));
        }
    }

    void unterminated(String text) {
        int pos = ++position;
        errors.add(new CommandParseError(pos,
                "command #" + pos + " is not valid JSON (unterminated object: a '{' is never closed): "
                        + "close every '{' and " + HINT, text));
    }

    void element(JsonNode node, String excerpt) {
        command(++position, node, excerpt);
    }

    void command(int pos, JsonNode node, String excerpt) {
        String prefix = "command #" + pos;
        if (node == null || !node.isObject()) {
            error(pos, prefix + " is not a JSON object (found " + kind(node) + "): " + HINT, excerpt);
            return;
        }
        JsonNode type = node.get("type");
        if (type == null || type.isNull()) {
            error(pos, prefix + " has no \"type\": add \"type\" with the command name,"
                    + " e.g. \"type\": \"diary_entry\"", excerpt);
            return;
        }
        if (!type.isTextual() || type.asText().isBlank()) {
            error(pos, prefix + " has a \"type\" that is not a non-empty string (found " + kind(type)
                    + "): set \"type\" to the command name, e.g. \"diary_entry\"", excerpt);
            return;
        }
        String typeName = type.asText().strip();
        prefix = prefix + " (\"" + typeName + "\")";

        JsonNode id = node.get("cmd_id");
        String cmdId;
        if (id == null || id.isNull() || (id.isTextual() && id.asText().isBlank())) {
            cmdId = "auto-" + pos;
        } else if (id.isTextual() || id.isIntegralNumber()) {
            cmdId = id.asText().strip();
        } else {
            error(pos, prefix + " has a \"cmd_id\" that is not a string (found " + kind(id)
                    + "): use a short string like \"c-1\", or leave it out", excerpt);
            return;
        }

        JsonNode argsNode = node.get("args");
        ObjectNode args;
        if (argsNode == null || argsNode.isNull()) {
            args = nodes.objectNode();
        } else if (argsNode.isObject()) {
            args = (ObjectNode) argsNode;
        } else {
            error(pos, prefix + " has \"args\" that is not a JSON object (found " + kind(argsNode)
                    + "): put the arguments in an object, e.g. \"args\": {\"text\": \"...\"}", excerpt);
            return;
        }

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

    void error(int pos, String message, String excerpt) {
        errors.add(new CommandParseError(pos, message, excerpt));
    }

    /**
     * Index just past the bracket closing the one at {@code from}, or -1 when it is never closed. Only
     * {@code open}/{@code close} are counted; brackets inside JSON strings are skipped, escapes honoured,
     * and a raw line break ends a string (JSON strings cannot hold one) so one bad quote cannot swallow
     * the following lines.
     */
    private static int matchClose(String s, int from, char open, char close) {
        int depth = 0;
        boolean inString = false;
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (inString) {
                if (c == '\\') i++;
                else if (c == '"' || c == '\n') inString = false;
            } else if (c == '"') {
                inString = true;
            } else if (c == open) {
                depth++;
            } else if (c == close) {
                depth--;
                if (depth == 0) return i + 1;
            }
        }
        return -1;
    }

    /**
     * Where to resume after the never-closed object opening at {@code from}: the first later line that
     * starts with an opening brace indented no deeper than that object's own brace (a sibling, not a nested
     * object), or -1.
     */
    private static int nextSiblingStart(String s, int from) {
        int column = from - (s.lastIndexOf('\n', from - 1) + 1);
        for (int nl = s.indexOf('\n', from); nl >= 0; nl = s.indexOf('\n', nl + 1)) {
            int j = nl + 1;
            while (j < s.length() && (s.charAt(j) == ' ' || s.charAt(j) == '\t')) j++;
            if (j < s.length() && s.charAt(j) == '{' && j - (nl + 1) <= column) return j;
        }
        return -1;
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
