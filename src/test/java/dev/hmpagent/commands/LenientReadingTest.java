package dev.hmpagent.commands;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Issue 22: command blocks read the way models write them (the corpus test holds whole replies). */
class LenientReadingTest {

    private final CommandBlockParser parser = new CommandBlockParser(new ObjectMapper());

    private List<String> commands(String reply) {
        return parser.canonicalCommands(parser.parse(reply));
    }

    private List<String> errors(String reply) {
        return parser.parse(reply).errors().stream().map(CommandParseError::message).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"# Commands:", "## Commands", "### Commands", "**Commands:**", "**Commands**",
            "Commands:", "  commands :  ", "**## Commands:**", "# Команды:", "Команды:", "**Команды**", "## КОМАНДЫ"})
    void a_start_marker_on_a_line_of_its_own_opens_the_block(String header) {
        assertThat(commands("thinking\n" + header + "\n{\"type\": \"a\"}")).containsExactly("a {}");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Commands", "#### Commands:", "# Commands: below", "> # Commands:", "Commands: none",
            "My commands:", "*Commands:*", "- Commands:", "Команды", "`# Commands:`"})
    void a_line_that_only_looks_like_a_start_marker_opens_nothing(String header) {
        ParsedReply r = parser.parse("thinking\n" + header + "\n{\"type\": \"a\"}");

        assertThat(r.hasCommandBlock()).as(header).isFalse();
        assertThat(r.commands()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"# End commands", "## End of commands", "**End commands**", "End commands",
            "End commands:", "Конец команд", "### конец команд"})
    void an_end_marker_in_any_of_its_forms_ends_the_block_and_what_follows_is_thought(String end) {
        ParsedReply r = parser.parse("# Commands:\n{\"type\": \"a\"}\n" + end + "\nafter {\"type\": \"b\"}");

        assertThat(parser.canonicalCommands(r)).containsExactly("a {}");
        assertThat(r.errors()).isEmpty();
        assertThat(r.thought()).isEqualTo("after {\"type\": \"b\"}");
    }

    @Test
    void a_brace_or_an_end_marker_inside_a_comment_neither_cuts_the_block_nor_the_command() {
        // the second command is broken, so the block is read item by item with our own lexer
        String reply = "# Commands:\n[{\"type\": \"a\", /* } ] # End commands */ \"args\": {\"t\": 1}},\n"
                + " {\"type\": \"b\", \"args\": }\n]\n# End commands\n";

        assertThat(commands(reply)).containsExactly("a {\"t\":1}");
        assertThat(errors(reply)).singleElement().satisfies(m -> assertThat(m).contains("command #2"));
    }

    @Test
    void a_command_inside_a_line_comment_never_runs_even_when_the_block_is_read_item_by_item() {
        String reply = "# Commands:\n[\n// {\"type\": \"shell\", \"args\": {\"command\": \"rm -rf /\"}},\n"
                + "{\"type\": \"b\", \"args\": }\n]";

        ParsedReply r = parser.parse(reply);

        assertThat(r.commands()).isEmpty();
        assertThat(r.errors()).singleElement().satisfies(e -> assertThat(e.message()).contains("command #1"));
    }

    @Test
    void a_quote_inside_a_string_of_the_other_kind_is_text() {
        String reply = "# Commands:\n[{\"type\": \"a\", \"args\": {\"t\": \"it's }\"}}, {'type': 'b', 'args': {'t': 'say \"}\"'}},"
                + " {\"type\": \"c\", \"args\": }]";

        assertThat(commands(reply)).containsExactly("a {\"t\":\"it's }\"}", "b {\"t\":\"say \\\"}\\\"\"}");
    }

    @Test
    void an_apostrophe_or_a_path_in_prose_outside_the_json_hides_no_command() {
        String reply = "# Commands:\nI'll run src/*.java checks:\n{\"type\": \"a\"}\nand that's it";

        assertThat(commands(reply)).containsExactly("a {}");
        assertThat(errors(reply)).hasSize(2).allSatisfy(m -> assertThat(m).contains("is not JSON"));
    }

    @Test
    void a_comment_after_a_command_on_its_line_is_a_comment_not_stray_text() {
        String reply = "I'll write it.\n\n## Commands\n- {'command': 'file_write', 'filename': 'a.txt'}  // the file\n"
                + "- {\"tool\": \"send_message\", \"message\": \"done\"}, /* and tell them */\n"
                + "{\"type\": \"c\"} see src/*.java\n";

        assertThat(commands(reply)).containsExactly("file_write {\"filename\":\"a.txt\"}",
                "send_message {\"message\":\"done\"}", "c {}");
        assertThat(errors(reply)).as("prose after a command is still stray text").singleElement()
                .satisfies(m -> assertThat(m).contains("is not JSON"));
    }

    @Test
    void type_beats_every_other_name_field_which_then_is_an_argument() {
        assertThat(commands("# Commands:\n{\"type\": \"concept_get\", \"name\": \"tea\", \"command\": \"x\"}"))
                .containsExactly("concept_get {\"command\":\"x\",\"name\":\"tea\"}");
    }

    @Test
    void the_name_fields_are_tried_in_a_fixed_order_whatever_the_order_they_are_written_in() {
        assertThat(commands("# Commands:\n{\"name\": \"b\", \"command\": \"a\", \"args\": {}}")).containsExactly("a {}");
        assertThat(commands("# Commands:\n{\"command\": \"a\", \"name\": \"b\", \"args\": {}}")).containsExactly("a {}");
        assertThat(commands("# Commands:\n{\"action\": \"d\", \"tool\": \"c\"}")).containsExactly("c {\"action\":\"d\"}");
    }

    @Test
    void args_beat_every_other_arguments_field_which_then_is_kept_as_extra() {
        ParsedReply r = parser.parse("# Commands:\n{\"type\": \"a\", \"args\": {\"x\": 1}, \"parameters\": {\"y\": 2}}");

        assertThat(parser.canonicalCommands(r)).containsExactly("a {\"x\":1}");
        assertThat(r.commands().get(0).extra().get("parameters").get("y").asInt()).isEqualTo(2);
    }

    @Test
    void an_arguments_string_that_is_not_json_is_an_args_error() {
        assertThat(errors("# Commands:\n{\"name\": \"shell\", \"arguments\": \"{command: ls\"}"))
                .singleElement().satisfies(m -> assertThat(m).contains("\"args\" that is not a JSON object"));
    }

    @Test
    void an_arguments_field_that_holds_a_plain_value_is_a_flat_argument() {
        assertThat(commands("# Commands:\n{\"type\": \"llm_task\", \"input\": \"summarise\"}"))
                .containsExactly("llm_task {\"input\":\"summarise\"}");
    }

    @Test
    void a_call_word_in_type_with_nothing_that_names_a_command_stays_the_type() {
        assertThat(commands("# Commands:\n{\"type\": \"function\", \"args\": {}}")).containsExactly("function {}");
    }

    @Test
    void the_outer_cmd_id_of_a_call_wrapper_is_kept() {
        ParsedReply r = parser.parse("# Commands:\n{\"cmd_id\": \"c-9\", \"type\": \"function\","
                + " \"function\": {\"name\": \"a\", \"arguments\": \"{}\"}}");

        assertThat(r.commands()).singleElement().satisfies(c -> {
            assertThat(c.cmdId()).isEqualTo("c-9");
            assertThat(c.type()).isEqualTo("a");
        });
    }

    @Test
    void commands_from_a_commands_list_object_are_numbered_in_block_order_with_their_siblings() {
        ParsedReply r = parser.parse("# Commands:\n{\"type\": \"a\"}\n{\"commands\": [{\"type\": \"b\"}, {\"x\": 1}]}\n{\"type\": \"c\"}");

        assertThat(r.commands()).extracting(ParsedCommand::type).containsExactly("a", "b", "c");
        assertThat(r.commands()).extracting(ParsedCommand::position).containsExactly(1, 2, 4);
        assertThat(r.errors()).singleElement().satisfies(e -> assertThat(e.position()).isEqualTo(3));
    }

    @Test
    void a_list_bullet_before_text_that_is_no_command_is_stray_text() {
        assertThat(errors("## Commands\n- run the tests\n- {\"type\": \"a\"}"))
                .singleElement().satisfies(m -> assertThat(m).contains("is not JSON"));
    }

    @Test
    void the_same_reply_always_gives_the_same_commands() {
        String reply = "## Commands\n- {name: 'a', arguments: '{\"x\": [1, 2]}', id: 'call_1'}\n- {tool: 'b', p: 1}";

        assertThat(parser.parse(reply)).isEqualTo(parser.parse(reply));
        assertThat(commands(reply)).containsExactly("a {\"x\":[1,2]}", "b {\"p\":1}");
    }

    @Test
    void a_multi_line_string_with_an_end_marker_line_in_it_is_text_when_a_later_end_marker_closes_the_block() {
        ParsedReply r = parser.parse("# Commands:\n[{\"type\": \"a\", \"args\": {\"t\": \"x\n# End commands\ny\"}},\n"
                + " {\"type\": \"b\"}]\n# End commands\nafter");

        assertThat(parser.canonicalCommands(r)).containsExactly("a {\"t\":\"x\\n# End commands\\ny\"}", "b {}");
        assertThat(r.errors()).isEmpty();
        assertThat(r.thought()).isEqualTo("after");
    }

    @Test
    void a_lost_quote_is_not_read_as_a_multi_line_string_and_costs_only_its_command() {
        ParsedReply r = parser.parse("# Commands:\n[{\"type\": \"a\", \"args\": {\"t\": \"x}},\n {\"type\": \"b\"}]");

        assertThat(parser.canonicalCommands(r)).containsExactly("b {}");
        assertThat(r.errors()).singleElement().satisfies(e -> assertThat(e.position()).isEqualTo(1));
    }

    @Test
    void an_arguments_string_nested_deeper_than_the_limit_is_not_parsed() {
        String deep = "{\\\"a\\\": " + "[".repeat(100) + "]".repeat(100) + "}";

        assertThat(errors("# Commands:\n{\"name\": \"x\", \"arguments\": \"" + deep + "\"}"))
                .singleElement().satisfies(m -> assertThat(m).contains("\"args\" that is not a JSON object"));
    }

    @Test
    void a_multi_line_string_does_not_let_a_command_nest_deeper_than_the_limit() {
        ParsedReply r = parser.parse("# Commands:\n{\"type\": \"a\", \"args\": {\"t\": \"x\ny\", \"d\": "
                + "[".repeat(70) + "]".repeat(70) + "}}");

        assertThat(r.commands()).isEmpty(); // Jackson alone (nesting up to 1000) would have read it
        assertThat(r.errors()).isNotEmpty();
    }
}
