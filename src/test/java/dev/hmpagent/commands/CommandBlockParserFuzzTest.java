package dev.hmpagent.commands;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Issue 20: the command-block reader under random and hostile replies. Seeds are pinned so scripts/test is
 * deterministic; the work is counted in characters looked at, never timed.
 */
class CommandBlockParserFuzzTest {

    private final CommandBlockParser parser = new CommandBlockParser(new ObjectMapper());

    /** Most characters the splitter may look at per character of the reply (a handful of passes). */
    private static final int STEPS_PER_CHAR = 12;

    private static final List<String> TOKENS = List.of("{", "}", "[", "]", "\"", "\\", ",", ":", "\n", " ", "```",
            "```json\n", "\n# Commands:\n", "\n# End commands\n", "{\"type\": \"a\"}", "{\"cmd_id\": \"c\", ",
            "\"args\": {", "\"text\": \"", "},{", "}{", "x", "é", "\uD83D\uDE00", "null", "1", "\r\n", "# Команды:\n");

    @Provide
    Arbitrary<String> hostile() {
        Arbitrary<String> token = Arbitraries.oneOf(Arbitraries.of(TOKENS),
                Arbitraries.strings().ofMaxLength(8),
                Arbitraries.of(TOKENS).flatMap(t -> Arbitraries.integers().between(50, 3_000).map(t::repeat)));
        return token.list().ofMaxSize(60).map(parts -> "thinking\n# Commands:\n" + String.join("", parts));
    }

    @Property(tries = 300, seed = "20204")
    void no_exception_escapes_and_the_work_is_linear_in_the_reply(@ForAll("hostile") String reply) {
        CommandBlockParser.Counted counted = parser.parseCounting(reply);

        assertThat(counted.reply()).isNotNull();
        assertThat(counted.steps()).isLessThanOrEqualTo((long) STEPS_PER_CHAR * (reply.length() + 1));
        assertThat(counted.reply().errors()).hasSizeLessThanOrEqualTo(CommandBlockParser.MAX_ERRORS);
    }

    @Property(tries = 60, seed = "20205")
    void one_token_repeated_many_times_costs_a_bounded_number_of_steps_per_character(
            @ForAll("repeatable") String token, @ForAll @IntRange(min = 1_000, max = 60_000) int times) {
        String reply = "# Commands:\n" + token.repeat(times);

        CommandBlockParser.Counted counted = parser.parseCounting(reply);

        assertThat(counted.steps()).isLessThanOrEqualTo((long) STEPS_PER_CHAR * reply.length());
    }

    @Provide
    Arbitrary<String> repeatable() {
        return Arbitraries.of("{", "[", "[{", "{\"a\":", "},{", "[{]", "{\n", "\"", "{\"type\": \"a\"", "-", "```\n",
                "{\"type\":\"a\",\"args\":{}", "[{\"x\":1}]", ",{", "{{\n");
    }

    /** One command of a generated block: its id, and whether a closing brace of it is left out. */
    record Item(int n, int damage) {
        String text() {
            String args = "{\"text\": \"t" + n + " {not a command} \\n# End commands\\n\"}";
            String argsText = damage == 1 ? args.substring(0, args.length() - 1) : args;
            String whole = "{\"cmd_id\": \"c-" + n + "\", \"type\": \"diary_entry\", \"args\": " + argsText + "}";
            return damage == 2 ? whole.substring(0, whole.length() - 1) : whole;
        }
    }

    @Provide
    Arbitrary<List<Item>> blocks() {
        return Arbitraries.integers().between(0, 2).list().ofMinSize(1).ofMaxSize(15)
                .map(damages -> IntStream.range(0, damages.size()).mapToObj(i -> new Item(i + 1, damages.get(i))).toList());
    }

    @Property(tries = 400, seed = "20206")
    void every_command_in_the_block_gets_its_run_or_its_error_row(@ForAll("blocks") List<Item> items,
                                                                   @ForAll boolean oneLine, @ForAll boolean fenced) {
        List<String> texts = items.stream().map(Item::text).toList();
        String array = "[" + String.join(oneLine ? "," : ",\n ", texts) + "]";
        String reply = "I will note these.\n# Commands:\n" + (fenced ? "```json\n" + array + "\n```" : array)
                + "\n# End commands\n";

        ParsedReply r = parser.parse(reply);

        Set<Integer> rows = new HashSet<>();
        r.commands().forEach(c -> rows.add(c.position()));
        r.errors().stream().filter(e -> e.position() > 0).forEach(e -> rows.add(e.position()));
        assertThat(rows).as(reply).containsExactlyInAnyOrderElementsOf(
                IntStream.rangeClosed(1, items.size()).boxed().toList());
        List<String> whole = items.stream().filter(i -> i.damage() == 0).map(i -> "c-" + i.n()).toList();
        assertThat(r.commands()).as(reply).extracting(ParsedCommand::cmdId).containsExactlyElementsOf(whole);
    }

    @Property(tries = 200, seed = "20207")
    void no_command_comes_from_a_quoted_block_an_example_or_a_string(
            @ForAll("blocks") List<Item> quoted, @ForAll("ownTexts") List<String> own, @ForAll boolean ownBlockEmpty) {
        String quotedBlock = "A note said:\n> # Commands:\n" + quoted.stream().map(i -> i.text().replace("diary_entry", "quoted_x"))
                .reduce("[", (a, b) -> a + b + ",") + "]\n> # End commands\nExample:\n```json\n{\"type\": \"example_x\"}\n```\n";
        List<String> commands = new ArrayList<>();
        for (int i = 0; i < own.size(); i++) {
            commands.add("{\"cmd_id\": \"o-" + i + "\", \"type\": \"own\", \"args\": {\"text\": " + own.get(i) + "}}");
        }
        String reply = quotedBlock + "My own block:\n# Commands:\n```json\n[" + (ownBlockEmpty ? "" : String.join(",", commands))
                + "]\n```\n# End commands\n";

        ParsedReply r = parser.parse(reply);

        assertThat(r.commands()).as(reply).allSatisfy(c -> assertThat(c.type()).isEqualTo("own"));
        assertThat(r.commands()).hasSize(ownBlockEmpty ? 0 : own.size());
    }

    /** JSON string literals that hold markers, fences and commands as text. */
    @Provide
    Arbitrary<List<String>> ownTexts() {
        Arbitrary<String> piece = Arbitraries.of("# End commands", "\\n# End commands\\n", "{\\\"type\\\": \\\"in_string\\\"}",
                "```", "\\n```json\\n[{\\\"type\\\": \\\"in_string\\\"}]\\n```", "# Commands:", "}]", "{[", "plain");
        return Combinators.combine(piece.list().ofMaxSize(5), Arbitraries.strings().alpha().ofMaxLength(5))
                .as((parts, tail) -> "\"" + String.join(" ", parts) + tail + "\"").list().ofMaxSize(6);
    }

    // --- issue 22: the lenient reading (single quotes, comments, other shapes, header forms, tags, lists) ---

    private static final List<String> LENIENT_TOKENS = List.of("'", "//", "/*", "*/", "\n// x {\n", "/* { */",
            "<tool_call>", "</tool_call>", "[TOOL_CALLS]", "<|python_tag|>", "\n- ", "\n1. ", "`", "{'type': 'a'}",
            "{name: 'a', arguments: '{\"x\": 1}'}", "{\"function\": {", "\"commands\": [", "\n## Commands\n",
            "\n**Commands:**\n", "\nCommands:\n", "\nКоманды:\n", "\nEnd commands\n", "'}'", "\"//\"");

    @Provide
    Arbitrary<String> lenientHostile() {
        Arbitrary<String> tokens = Arbitraries.oneOf(Arbitraries.of(TOKENS), Arbitraries.of(LENIENT_TOKENS));
        Arbitrary<String> token = Arbitraries.oneOf(tokens, Arbitraries.strings().ofMaxLength(8),
                tokens.flatMap(t -> Arbitraries.integers().between(50, 3_000).map(t::repeat)));
        return token.list().ofMaxSize(60).map(parts -> "thinking\n## Commands\n" + String.join("", parts));
    }

    @Property(tries = 300, seed = "22201")
    void lenient_reading_lets_no_exception_escape_and_stays_linear(@ForAll("lenientHostile") String reply) {
        CommandBlockParser.Counted counted = parser.parseCounting(reply);

        assertThat(counted.reply()).isNotNull();
        assertThat(counted.steps()).isLessThanOrEqualTo((long) STEPS_PER_CHAR * (reply.length() + 1));
        assertThat(counted.reply().errors()).hasSizeLessThanOrEqualTo(CommandBlockParser.MAX_ERRORS);
    }

    @Property(tries = 60, seed = "22202")
    void a_lenient_token_repeated_many_times_costs_a_bounded_number_of_steps_per_character(
            @ForAll("lenientRepeatable") String token, @ForAll @IntRange(min = 1_000, max = 60_000) int times) {
        String reply = "**Commands:**\n" + token.repeat(times);

        assertThat(parser.parseCounting(reply).steps()).isLessThanOrEqualTo((long) STEPS_PER_CHAR * reply.length());
    }

    @Provide
    Arbitrary<String> lenientRepeatable() {
        return Arbitraries.of("/*", "//\n", "/", "'", "{'", "[TOOL_CALLS]", "<tool_call>", "- ", "\n- {", "`{", "1. [",
                "{/*", "{'a':", "\n* `", "{//\n");
    }

    /** One of our own commands in a lenient shape, its text argument holding markers, commands and comments. */
    record Own(int shape, boolean single, String text) {
        String json() {
            String q = single ? "'" : "\"";
            String t = q + text + q;
            return switch (shape) {
                case 0 -> "{" + q + "type" + q + ": " + q + "own" + q + ", " + q + "args" + q + ": {text: " + t + "}}";
                case 1 -> "{name: " + q + "own" + q + ", arguments: {" + q + "text" + q + ": " + t + "}}";
                case 2 -> "{" + q + "type" + q + ": " + q + "own" + q + ", " + q + "text" + q + ": " + t + ",}";
                default -> "{" + q + "type" + q + ": " + q + "function" + q + ", function: {name: " + q + "own" + q
                        + ", arguments: {text: " + t + "}}}";
            };
        }
    }

    @Provide
    Arbitrary<List<Own>> ownLenient() {
        Arbitrary<String> piece = Arbitraries.of("# End commands", "\\n# End commands\\n", "End commands", "}]", "{[",
                "// {\\\"type\\\": \\\"in_string\\\"}", "/* {\\\"type\\\": \\\"in_string\\\"} */", "*/ {", "\\n## Commands\\n", "plain",
                "<tool_call>", "\\n- {\\\"type\\\": \\\"in_string\\\"}");
        Arbitrary<String> text = piece.list().ofMaxSize(4).map(parts -> String.join(" ", parts));
        return Combinators.combine(Arbitraries.integers().between(0, 3), Arbitraries.of(true, false), text)
                .as((shape, single, t) -> new Own(shape, single, single ? t.replace("\\\"", "\"") : t.replace("'", "")))
                .list().ofMaxSize(6);
    }

    /** Commands that must never run: in comments between our own, in a quoted block, in an example. */
    private static final List<String> HIDDEN = List.of("// {\"type\": \"in_comment\"}\n",
            "/* {\"type\": \"in_comment\"}, */", "/*\n{\"type\": \"in_comment\"}\n*/\n", "\n");

    @Property(tries = 300, seed = "22203")
    void no_lenient_command_comes_from_a_quoted_block_an_example_a_string_or_a_comment(
            @ForAll("ownLenient") List<Own> own, @ForAll @IntRange(min = 0, max = 3) int layout,
            @ForAll @IntRange(min = 0, max = 5) int header, @ForAll @IntRange(min = 0, max = 3) int hidden) {
        String example = "A note said:\n> ## Commands\n> - {'type': 'quoted_x'}\n> <tool_call>{\"name\": \"quoted_x\"}</tool_call>\n"
                + "Unheaded example:\n```json\n[{\"name\": \"example_x\", \"arguments\": {}}]\n```\n<tool_call>\n"
                + "{\"name\": \"example_x\"}\n</tool_call>\n";
        String start = List.of("# Commands:", "## Commands", "**Commands:**", "Commands:", "Команды:", "### Команды").get(header);
        String reply = example + "My own block:\n" + start + "\n" + layout(own, layout, HIDDEN.get(hidden)) + "\nEnd commands\n";

        ParsedReply r = parser.parse(reply);

        assertThat(r.errors()).as(reply).isEmpty();
        assertThat(r.commands()).as(reply).hasSize(own.size()).allSatisfy(c -> assertThat(c.type()).isEqualTo("own"));
        for (int i = 0; i < own.size(); i++) {
            String text = own.get(i).text().replace("\\n", "\n").replace("\\\"", "\"");
            assertThat(r.commands().get(i).args().get("text").asText()).as(reply).isEqualTo(text);
        }
    }

    /** Our commands as an array, a markdown list, tool-call tags or a fenced array, each after a hidden one. */
    private static String layout(List<Own> own, int layout, String hidden) {
        List<String> items = own.stream().map(Own::json).toList();
        return switch (layout) {
            case 0 -> "[" + hidden + String.join(",\n" + hidden, items) + "]";
            case 1 -> items.stream().map(i -> hidden + "\n- " + i + "\n").reduce("", String::concat);
            case 2 -> items.stream().map(i -> hidden + "<tool_call>\n" + i + "\n</tool_call>\n").reduce("", String::concat);
            default -> "```json\n[" + String.join(", " + hidden, items) + "]\n```";
        };
    }
}
