package dev.hmpagent.commands;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Splits an LLM reply into its thought and the command block at its end. Pure: no I/O, no state between
 * calls, safe to share between threads.
 *
 * <p>The reply contract:
 * <pre>
 * free text (the thought)
 *
 * # Commands:
 * ```json
 * [{"cmd_id": "c-1", "type": "diary_entry", "args": {"text": "..."}, "description": "..."}]
 * ```
 * # End commands
 * </pre>
 *
 * <h2>Markers</h2>
 * A start marker is a line {@code # Commands:} or {@code # Команды:}, an end marker a line
 * {@code # End commands} or {@code # Конец команд}; both case-insensitive, with 1-3 {@code #}, optional
 * spaces, an optional colon and optional {@code **} bold around them. Of several start markers the last
 * one whose block contains an opening brace is used (the last one of all when none does). A missing end marker
 * means the block runs to the end of the reply. Without a start marker there are no commands and the whole
 * reply is the thought.
 *
 * <h2>Block</h2>
 * The block holds one JSON object, a JSON array of objects, or several objects one after another
 * (optionally comma-separated), with or without {@code ```} / {@code ```json} fences; when there are
 * fences, every fenced part is read (and unfenced text only if it contains an opening brace). Trailing commas
 * are accepted. When an array does not parse as a whole it is split into its top-level {@code {...}}
 * objects by brace matching (JSON strings and escapes respected; a raw line break ends a runaway string)
 * and each is parsed alone: each that fails becomes an error, its valid siblings are still returned. An
 * object that is never closed is an error that ends at the next line starting with an opening brace no
 * deeper indented than its own (or at the end of the block), so siblings after it are still read.
 *
 * <h2>Commands</h2>
 * {@code type} is required (non-empty string). {@code cmd_id} is optional: a string (or integer); when
 * missing, null or blank it becomes {@code auto-<n>} with n the 1-based position in the block. {@code args}
 * is optional (missing or null gives an empty object) but must be an object when present.
 * {@code description} is optional: missing or null gives "", a non-string value its JSON text. Every other
 * field is kept in {@link ParsedCommand#extra()}. A {@code cmd_id} already used by an earlier command of
 * the same reply makes the later command an error.
 *
 * <h2>Empty block</h2>
 * A start marker followed by an empty block (or by an empty array) yields no commands and no errors, with
 * {@link ParsedReply#hasCommandBlock()} true: "I have nothing to do" is a legitimate answer.
 */
public final class CommandBlockParser {

    private static final Pattern START = Pattern.compile(
            "^\\s*(?:\\*\\*)?\\s*#{1,3}\\s*(?:\\*\\*)?\\s*(?:commands|команды)\\s*:?\\s*(?:\\*\\*)?\\s*:?\\s*$",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    private static final Pattern END = Pattern.compile(
            "^\\s*(?:\\*\\*)?\\s*#{1,3}\\s*(?:\\*\\*)?\\s*(?:end\\s+(?:of\\s+)?commands|конец\\s+команд)"
                    + "\\s*:?\\s*(?:\\*\\*)?\\s*:?\\s*$",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

    private static final String HINT = "send each command as a JSON object with \"type\" and \"args\"";

    private final ObjectReader reader;
    private final JsonNodeFactory nodes;

    public CommandBlockParser(ObjectMapper mapper) {
        Objects.requireNonNull(mapper, "mapper");
        this.reader = mapper.reader().with(JsonReadFeature.ALLOW_TRAILING_COMMA);
        this.nodes = mapper.getNodeFactory();
    }

    /** Parses one reply; never throws for any content of {@code reply}. */
    public ParsedReply parse(String reply) {
        Objects.requireNonNull(reply, "reply");
        String text = reply.replace("\r\n", "\n").replace('\r', '\n');
        List<String> lines = Arrays.asList(text.split("\n", -1));

        List<Integer> starts = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (START.matcher(lines.get(i)).matches()) starts.add(i);
        }
        if (starts.isEmpty()) return new ParsedReply(text.strip(), List.of(), List.of(), false);

        int start = starts.get(starts.size() - 1);
        for (int k = starts.size() - 1; k >= 0; k--) {
            int s = starts.get(k);
            if (String.join("\n", lines.subList(s + 1, endOf(lines, s))).indexOf('{') >= 0) {
                start = s;
                break;
            }
        }
        int end = endOf(lines, start);
        List<String> region = lines.subList(start + 1, end);

        String before = String.join("\n", lines.subList(0, start)).strip();
        String after = "";
        if (end < lines.size()) {
            List<String> rest = lines.subList(end + 1, lines.size());
            // "# End commands" written inside the fence leaves the closing fence after it: not thought.
            int first = 0;
            while (first < rest.size() && rest.get(first).isBlank()) first++;
            if (first < rest.size() && hasUnclosedFence(region) && isFence(rest.get(first))) first++;
            after = String.join("\n", rest.subList(first, rest.size())).strip();
        }
        String thought = before.isEmpty() ? after : after.isEmpty() ? before : before + "\n\n" + after;

        Block block = new Block();
        for (String segment : segments(region)) block.scan(segment);
        return new ParsedReply(thought, block.commands, block.errors, true);
    }

    /** Index of the first end marker after {@code start}, or the number of lines when there is none. */
    private static int endOf(List<String> lines, int start) {
        for (int i = start + 1; i < lines.size(); i++) {
            if (END.matcher(lines.get(i)).matches()) return i;
        }
        return lines.size();
    }

    private static boolean isFence(String line) {
        String t = line.strip();
        return t.startsWith("```") || t.startsWith("~~~");
    }

    private static boolean hasUnclosedFence(List<String> region) {
        return region.stream().filter(CommandBlockParser::isFence).count() % 2 == 1;
    }

    /** The parts of the block to read: the whole block, or, when it has fences, each fenced part. */
    private static List<String> segments(List<String> region) {
        if (region.stream().noneMatch(CommandBlockParser::isFence)) return List.of(String.join("\n", region));
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean inFence = false;
        for (String line : region) {
            if (isFence(line)) {
                String part = current.toString();
                if (inFence || part.indexOf('{') >= 0) out.add(part);
                current.setLength(0);
                inFence = !inFence;
            } else {
                current.append(line).append('\n');
            }
        }
        String part = current.toString();
        if (inFence || part.indexOf('{') >= 0) out.add(part);
        return out;
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

    /** Collects the commands and errors of one block, numbering candidates as they come. */
    private final class Block {
        final List<ParsedCommand> commands = new ArrayList<>();
        final List<CommandParseError> errors = new ArrayList<>();
        final Map<String, Integer> idPositions = new HashMap<>();
        int position;

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
