package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.commands.CommandBlockParser;
import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandRegistry;
import dev.hmpagent.commands.ParsedCommand;
import dev.hmpagent.commands.ParsedReply;
import dev.hmpagent.commands.SimpleCommand;
import dev.hmpagent.commands.catalogue.Catalogue;
import dev.hmpagent.llm.ToolCall;
import dev.hmpagent.llm.ToolSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The registry as native tools, and tool calls read as the commands of a block. */
class CommandToolsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static CommandHandler command(String type) {
        return new SimpleCommand(type, "does " + type, "{\"text\": \"...\", \"limit\": 3}", (a, c) -> null);
    }

    @Test
    void the_built_in_registry_offers_its_common_commands_as_tools_with_schemas_and_the_rare_ones_through_use() {
        CommandRegistry registry = Catalogue.builtIn();

        List<ToolSpec> tools = CommandTools.offered(registry);

        assertThat(tools.size()).isLessThanOrEqualTo(CommandTools.MAX_TOOLS);
        assertThat(tools).extracting(ToolSpec::name).contains("send_message", "diary_entry", "help", "memory_add")
                .doesNotContain("llm_select", "identity_set").endsWith("use");
        ToolSpec say = tools.stream().filter(t -> t.name().equals("send_message")).findFirst().orElseThrow();
        assertThat(say.schema().path("type").asText()).isEqualTo("object");
        assertThat(say.schema().path("properties").has("text")).isTrue();
        ToolSpec use = tools.get(tools.size() - 1);
        assertThat(use.description()).as("the rare commands are named where use is offered").contains("llm_select");
        assertThat(use.schema().path("required").get(0).asText()).isEqualTo("type");
    }

    @Test
    void at_most_128_tools_are_offered_the_rest_go_through_use() {
        List<CommandHandler> many = new ArrayList<>();
        for (int i = 0; i < 200; i++) many.add(command("cmd_" + i));
        CommandRegistry registry = new CommandRegistry().register("many", many)
                .registerCompact("rare", List.of(command("rare_one")));

        List<ToolSpec> tools = CommandTools.offered(registry);

        assertThat(tools).hasSize(128);
        assertThat(tools.get(126).name()).isEqualTo("cmd_126");
        assertThat(tools.get(127).name()).isEqualTo("use");
        assertThat(tools.get(127).description()).contains("cmd_127", "cmd_199", "rare_one");
    }

    @Test
    void tool_calls_become_commands_use_names_the_type_and_bad_arguments_are_parse_errors() {
        CommandTools.Read read = CommandTools.read("  Answering.  ", List.of(
                new ToolCall("call_1", "send_message", "{\"text\": \"hi\"}"),
                new ToolCall("call_2", "use", "{\"type\": \"diary_entry\", \"args\": {\"text\": \"noted\"}}"),
                new ToolCall("", "memory_add", "{\"title\": \"broken"),
                new ToolCall("call_4", "use", "{\"args\": {}}"),
                new ToolCall("call_5", "help", "")));

        ParsedReply parsed = read.parsed();
        assertThat(parsed.thought()).isEqualTo("Answering.");
        assertThat(parsed.commands()).extracting(ParsedCommand::position, ParsedCommand::cmdId, ParsedCommand::type)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1, "c-1", "send_message"),
                        org.assertj.core.groups.Tuple.tuple(2, "c-2", "diary_entry"),
                        org.assertj.core.groups.Tuple.tuple(5, "c-5", "help"));
        assertThat(parsed.commands().get(1).args().path("text").asText()).isEqualTo("noted");
        assertThat(parsed.commands().get(2).args().size()).as("no arguments is an empty object").isZero();
        assertThat(parsed.errors()).extracting(e -> e.position()).containsExactly(3, 4);
        assertThat(parsed.errors().get(0).message()).contains("memory_add", "not valid JSON");
        assertThat(parsed.errors().get(1).message()).contains("\"type\"");
    }

    @Test
    void a_json_reply_s_command_without_a_type_is_said_as_a_command_not_as_the_use_tool() {
        ParsedReply parsed = CommandTools.read("Hm.", List.of(new ToolCall("", "", "{\"text\": \"hi\"}"))).parsed();

        assertThat(parsed.commands()).isEmpty();
        assertThat(parsed.errors()).singleElement().extracting(e -> e.message()).isEqualTo("a command needs \"type\","
                + " the command to run, and \"args\", its arguments: {\"type\": \"help\", \"args\": {}}");
    }

    @Test
    void the_same_calls_with_other_provider_ids_are_kept_as_the_same_text_so_a_repeat_is_seen() {
        String first = CommandTools.read("Hi.", List.of(new ToolCall("call_a1", "send_message", "{\"text\": \"hi\"}"))).text();
        String again = CommandTools.read("Hi.", List.of(new ToolCall("call_z9", "send_message", "{\"text\": \"hi\"}"))).text();

        assertThat(again).isEqualTo(first).doesNotContain("call_");
    }

    @Test
    void the_kept_text_is_the_thought_and_a_block_the_parser_reads_as_the_same_commands() {
        CommandTools.Read read = CommandTools.read("Answering.", List.of(
                new ToolCall("call_1", "send_message", "{\"text\": \"hi\"}"),
                new ToolCall("call_2", "use", "{\"type\": \"diary_entry\", \"args\": {\"text\": \"noted\"}}")));

        assertThat(read.text()).startsWith("Answering.\n\n# Commands:\n").endsWith("# End commands");
        ParsedReply again = new CommandBlockParser(JSON).parse(read.text());
        assertThat(again.errors()).isEmpty();
        assertThat(again.thought()).isEqualTo("Answering.");
        assertThat(again.commands()).extracting(ParsedCommand::type, c -> c.args().toString())
                .containsExactlyElementsOf(read.parsed().commands().stream()
                        .map(c -> org.assertj.core.groups.Tuple.tuple(c.type(), c.args().toString())).toList());
    }
}
