package dev.hmpagent.commands;

import dev.hmpagent.text.Json;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * A start marker is a line of its own holding {@code Commands} or {@code Команды}, written one of three ways:
 * after 1-3 {@code #} ({@code # Commands:}, {@code ## Commands}, {@code ### Команды}), in bold alone
 * ({@code **Commands:**}), or plain with a colon ({@code Commands:}, {@code Команды:}); an end marker likewise
 * holds {@code End commands}, {@code End of commands} or {@code Конец команд} (plain, the colon is optional).
 * Case-insensitive; spaces, a colon and {@code **} bold around the words are allowed. A line that goes on
 * after the words ({@code # Commands: below}), a quoted one ({@code > # Commands:}) or one with four or more
 * {@code #} is not a marker.
 *
 * <p>Without a start marker there are no commands and the whole reply is the thought, even when it holds
 * a fenced JSON array or tool-call tags: JSON without a header may be an example, a plan or a quotation,
 * and running it would run what the model only showed. (Whoever shows the reply shows that thought.)
 *
 * <p>Of several start markers only the last one starts the block: the model's own block comes last, and
 * that last block is its decision, even when it is empty. Every earlier block (one the model quoted from a
 * note or a tool result, say) is part of the thought and never runs, so quoting a block followed by an
 * empty one of its own runs nothing.
 *
 * <p>An end marker ends the block only where the block before it is balanced: no {@code {} or {@code [}
 * left open outside a JSON string (a raw line break ends a string). Otherwise a later end marker that does
 * balance it is used, else the last end marker when no {@code {} or {@code [} follows it (when one does,
 * that marker sat inside a broken string and the block runs on); with no end marker the block runs to the
 * end of the reply.
 * So an end marker written inside a broken string does not silently drop the commands after it: every
 * command the block holds either is returned or becomes an error. Text after the chosen end marker is
 * thought.
 *
 * <h2>Block</h2>
 * The block holds one JSON object, a JSON array of objects, or several objects one after another
 * (optionally comma-separated), with or without {@code ```} / {@code ```json} fences; when there are
 * fences, every fenced part is read (and unfenced text only if it contains an opening brace). JSON is read
 * leniently, by Jackson's own read features: single-quoted strings, unquoted field names, {@code //} and
 * {@code /* *}{@code /} comments, trailing commas. Not enabled: {@code #} comments (our markers start with
 * {@code #}), missing values ({@code [1,,2]} would invent nulls), NaN/Infinity. A raw line break inside a
 * string (a file's lines written as they are) is accepted only where the whole fenced part (or the whole
 * block) then is one valid array or object: elsewhere the splitter ends a string at a raw line break, so
 * that one bad quote cannot swallow the commands after it. Around the JSON the block
 * may hold what models write there: tool-call tags ({@code <tool_call>}, {@code [TOOL_CALLS]},
 * {@code <|python_tag|>}...), markdown list bullets ({@code - }, {@code 1. }) and inline code ticks before
 * a command; see {@link BlockNoise}. Any other text is reported as stray text and its commands still run.
 * When an array does not parse as a whole it is split into its top-level {@code {...}}
 * objects by brace matching (strings in either quote, escapes and comments respected, as {@link JsonLexer}
 * reads them, so a brace inside a string or a comment never cuts a command, and a command inside a comment
 * never runs; a raw line break ends a runaway string)
 * and each is parsed alone: each that fails becomes an error, its valid siblings are still returned. An
 * object that is never closed is an error that ends at the next line starting with an opening brace no
 * deeper indented than its own (or at the end of the block), so siblings after it are still read; an object
 * that lost a closer ends earlier, at the first {@code {} that no valid object could hold where it stands
 * (right after a {@code ,}, {@code }} or {@code ]} directly inside an object, as in {@code },{} written
 * inside it), so one missing brace on a one-line array costs that command alone. Only the
 * outermost array is parsed as a whole; an array inside it that did not parse is read object by object too.
 *
 * <h2>Limits</h2>
 * Nothing nested deeper than 64 brackets (braces and square brackets together, the command array
 * included) is parsed: such a command is one error, and any other too-deep or never-closed nest of arrays
 * (a model repeating {@code [} thousands of times) is one error for the whole nest. A reply yields at most
 * {@link #MAX_ERRORS} errors; when there were more, the last one says how many were left out. Reading is
 * iterative and linear in the length of the reply, so no reply can exhaust the stack.
 *
 * <h2>Commands</h2>
 * Each object is first brought into the HMP shape ({@link CommandShape}), by these rules in this order, so
 * the same object always gives the same command:
 * <ol>
 * <li>A call wrapper is opened: when {@code type} is missing or says "a call" ({@code function},
 * {@code tool_use}, {@code tool_call}, {@code function_call}) and {@code function} or {@code function_call}
 * holds an object (OpenAI's {@code tool_calls} items and legacy function calls), that object is the command
 * (keeping the outer {@code cmd_id}).</li>
 * <li>The name: {@code type}, unless missing, null or a call word; then the first of {@code command},
 * {@code name}, {@code tool}, {@code tool_name}, {@code action}, {@code function} that holds one word (so
 * {@code {"command": "ls -la"}} names no command and is an error, never a type "ls -la").</li>
 * <li>The arguments: {@code args} when present and not null; else the first of {@code arguments},
 * {@code parameters}, {@code input}, {@code params}, {@code tool_input}, {@code action_input} that holds an
 * object or a string starting with {@code {} (OpenAI sends arguments as a JSON string; it is parsed, and one
 * that does not parse is an args error). Every other field then goes to {@link ParsedCommand#extra()}.</li>
 * <li>Flat arguments: with neither, every field but {@code cmd_id}, {@code type} and the field that named
 * the command becomes an argument ({@code {"type": "note_read", "id": 3}} reads note 3); a
 * {@code description} is then both the command's description and an argument (several commands take one).
 * Argument names themselves are not changed here (the registry's aliases do that).</li>
 * <li>An object that names no command but holds a {@code commands} or {@code tool_calls} array (JSON mode
 * answers, an OpenAI assistant message) stands for the commands in that array.</li>
 * </ol>
 * Then: {@code type} is required (non-empty string). {@code cmd_id} is optional: a string (or integer); when
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

    private static final Pattern START = marker("commands|команды", ":");
    private static final Pattern END = marker("end\\s+(?:of\\s+)?commands|конец\\s+команд", ":?");

    /**
     * A marker line: the words with 1-3 {@code #} before them (bold or not), or in bold alone, or plain
     * followed by {@code plainColon}; an optional colon in the first two forms; case-insensitive.
     */
    private static Pattern marker(String words, String plainColon) {
        String w = "(?:" + words + ")";
        return Pattern.compile("^\\s*(?:(?:\\*\\*)?\\s*#{1,3}\\s*(?:\\*\\*)?\\s*" + w + "\\s*:?\\s*(?:\\*\\*)?\\s*:?"
                        + "|\\*\\*\\s*" + w + "\\s*:?\\s*\\*\\*\\s*:?|" + w + "\\s*" + plainColon + ")\\s*$",
                Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    }

    /** What a marker line can start with (so most lines of prose never meet the patterns). */
    private static final String MARKER_FIRST = "#*CcEeКк";

    /** Longest marker line, stripped; longer lines are not tried (the patterns backtrack on long blanks). */
    private static final int MAX_MARKER_LENGTH = 64;

    /** Most error rows one reply yields; the last one then says how many more were left out. */
    public static final int MAX_ERRORS = 20;

    /** Jackson's read features for lenient JSON; see "Block" above for the ones left out and why. */
    private static final JsonReadFeature[] LENIENT = {JsonReadFeature.ALLOW_TRAILING_COMMA,
        JsonReadFeature.ALLOW_SINGLE_QUOTES, JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES, JsonReadFeature.ALLOW_JAVA_COMMENTS};

    private final ObjectReader reader;
    private final ObjectReader multiLineReader;
    private final JsonNodeFactory nodes;
    private final ObjectWriter sortedWriter;

    public CommandBlockParser(ObjectMapper mapper) {
        Objects.requireNonNull(mapper, "mapper");
        this.reader = mapper.reader().withFeatures(LENIENT);
        JsonFactory limited = JsonFactory.builder().streamReadConstraints(
                StreamReadConstraints.builder().maxNestingDepth(BlockSplitter.MAX_DEPTH).build()).build();
        this.multiLineReader = Json.builder(limited).build().reader().withFeatures(LENIENT)
                .with(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS).with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        this.nodes = mapper.getNodeFactory();
        this.sortedWriter = mapper.writer().with(JsonNodeFeature.WRITE_PROPERTIES_SORTED)
                .without(SerializationFeature.INDENT_OUTPUT);
    }

    /** Parses one reply; never throws for any content of {@code reply}. */
    public ParsedReply parse(String reply) {
        return parseCounting(reply).reply();
    }

    /** A parse and the characters its block's splitter looked at, for tests that reading stays linear. */
    record Counted(ParsedReply reply, long steps) { }

    Counted parseCounting(String reply) {
        Objects.requireNonNull(reply, "reply");
        String text = reply.replace("\r\n", "\n").replace('\r', '\n');
        List<String> lines = Arrays.asList(text.split("\n", -1));

        int start = lastStart(lines);
        if (start < 0) return new Counted(new ParsedReply(text.strip(), List.of(), List.of(), false, ""), 0);
        int end = endOf(lines, start);
        List<String> region = lines.subList(start + 1, end);

        BlockReader block = new BlockReader(reader, multiLineReader, nodes);
        for (String segment : segments(region)) block.scan(segment);
        return new Counted(new ParsedReply(thought(lines, start, end), block.commands(), block.errors(), true,
                String.join("\n", region)), block.steps());
    }

    /** The text before the start marker and after the end marker, joined with a blank line. */
    private static String thought(List<String> lines, int start, int end) {
        String before = String.join("\n", lines.subList(0, start)).strip();
        String after = "";
        if (end < lines.size()) {
            List<String> rest = lines.subList(end + 1, lines.size());
            // "# End commands" written inside the fence leaves the closing fence after it: not thought.
            int first = 0;
            while (first < rest.size() && rest.get(first).isBlank()) first++;
            if (first < rest.size() && hasUnclosedFence(lines.subList(start + 1, end)) && isFence(rest.get(first))) {
                first++;
            }
            after = String.join("\n", rest.subList(first, rest.size())).strip();
        }
        return before.isEmpty() ? after : after.isEmpty() ? before : before + "\n\n" + after;
    }

    /**
     * The commands of {@code reply} in a canonical form, for telling whether two replies ask for the same
     * thing (e.g. whether a reply's block repeats a block shown to the model as data): one string per
     * command, in block order, {@code type + " " + args}, the args as compact JSON with every object's
     * keys sorted. {@code cmd_id}, {@code description} and any other top-level field are left out, so
     * the same commands written with other ids, whitespace or key order give equal lists.
     */
    public List<String> canonicalCommands(ParsedReply reply) {
        Objects.requireNonNull(reply, "reply");
        List<String> out = new ArrayList<>(reply.commands().size());
        for (ParsedCommand command : reply.commands()) out.add(command.type() + " " + sorted(command));
        return List.copyOf(out);
    }

    private String sorted(ParsedCommand command) {
        try {
            return sortedWriter.writeValueAsString(command.args());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the args of command " + command.cmdId(), e);
        }
    }

    private static boolean isMarker(Pattern marker, String line) {
        String t = line.strip();
        return t.length() <= MAX_MARKER_LENGTH && t.length() > 1
                && MARKER_FIRST.indexOf(t.charAt(0)) >= 0
                && marker.matcher(t).matches();
    }

    /** Index of the last start marker line, or -1 when there is none. */
    private static int lastStart(List<String> lines) {
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (isMarker(START, lines.get(i))) return i;
        }
        return -1;
    }

    /**
     * Index of the end marker that ends the block opened at {@code start}: the first one before which the
     * block is balanced (no bracket left open outside a JSON string, as {@link JsonLexer} reads it), else the
     * last one, else the number of lines. So an end marker inside a broken string or an open array does not
     * cut the commands after it out of the block.
     */
    private static int endOf(List<String> lines, int start) {
        JsonLexer lexer = new JsonLexer();
        int depth = 0;
        int last = lines.size();
        for (int i = start + 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (isMarker(END, line)) {
                if (depth == 0) return i;
                last = i;
            }
            for (int k = 0; k < line.length(); k++) depth = lexer.depthAfter(line.charAt(k), depth);
            depth = lexer.depthAfter('\n', depth);
        }
        // no end marker balances the block: the last one ends it only if no JSON follows it (else it was a
        // fake one inside a broken string, and the real end marker is simply missing)
        for (int i = last + 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.indexOf('{') >= 0 || line.indexOf('[') >= 0) return lines.size();
        }
        return last;
    }

    private static boolean isFence(String line) {
        String t = line.strip();
        return t.startsWith("```") || t.startsWith("~~~");
    }

    private static boolean hasUnclosedFence(List<String> region) {
        return region.stream().filter(l -> isFence(l) && oneLineFence(l) == null).count() % 2 == 1;
    }

    /**
     * What a fence line holds after its fence and info word ({@code ```json [{...}]}), stripped; "" for a
     * bare fence line.
     */
    private static String afterFence(String line) {
        String t = line.strip();
        int k = 0;
        while (k < t.length() && (t.charAt(k) == '`' || t.charAt(k) == '~')) k++;
        while (k < t.length() && (Character.isLetterOrDigit(t.charAt(k)) || t.charAt(k) == '_' || t.charAt(k) == '-')) k++;
        return t.substring(k).strip();
    }

    private static boolean holdsJson(String text) {
        return text.indexOf('{') >= 0 || text.indexOf('[') >= 0;
    }

    /** The JSON of a fence that opens and closes on one line ({@code ```json {...}```}), or null. */
    private static String oneLineFence(String line) {
        String rest = afterFence(line);
        if (!holdsJson(rest) || !(rest.endsWith("```") || rest.endsWith("~~~"))) return null;
        return rest.substring(0, rest.length() - 3);
    }

    /**
     * The parts of the block to read: the whole block, or, when it has fences, each fenced part. JSON on a
     * fence line itself is read too: a fence that opens and closes on one line is a part of its own, and JSON
     * after an opening fence starts its part.
     */
    private static List<String> segments(List<String> region) {
        if (region.stream().noneMatch(CommandBlockParser::isFence)) return List.of(String.join("\n", region));
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean inFence = false;
        for (String line : region) {
            if (!isFence(line)) {
                current.append(line).append('\n');
                continue;
            }
            String oneLine = oneLineFence(line);
            if (oneLine != null) {
                out.add(oneLine);
                continue;
            }
            String part = current.toString();
            if (inFence || part.indexOf('{') >= 0) out.add(part);
            current.setLength(0);
            inFence = !inFence;
            String rest = afterFence(line);
            if (inFence && holdsJson(rest)) current.append(rest).append('\n');
        }
        String part = current.toString();
        if (inFence || part.indexOf('{') >= 0) out.add(part);
        return out;
    }
}
