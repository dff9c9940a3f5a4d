package dev.hmpagent.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.commands.catalogue.Catalogue;
import dev.hmpagent.cycle.CommandTools;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The schema a JSON reply is kept to: its shape for a few commands, within what OpenAI's strict mode accepts. */
class ReplySchemaTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ToolSpec spec(String name, String schema) throws Exception {
        return new ToolSpec(name, name, JSON.readTree(schema));
    }

    @Test
    void each_command_is_a_closed_type_and_args_item_its_optional_arguments_nullable() throws Exception {
        ReplySchema reply = ReplySchema.of(List.of(
                spec("send_message", "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},"
                        + "\"required\":[\"text\"]}"),
                spec("diary_entry", "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"},\"tags\":"
                        + "{\"type\":\"array\",\"items\":{\"type\":\"string\"}}},\"required\":[\"text\"]}"),
                spec("idle", "{\"type\":\"object\",\"properties\":{}}")));

        assertThat(reply.strict()).isTrue();
        assertThat(reply.schema()).isEqualTo(JSON.readTree("""
                {"type":"object","properties":{"thought":{"type":"string"},"commands":{"type":"array","items":{"anyOf":[
                  {"type":"object","properties":{"type":{"type":"string","enum":["send_message"]},
                    "args":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],
                            "additionalProperties":false}},
                   "required":["type","args"],"additionalProperties":false},
                  {"type":"object","properties":{"type":{"type":"string","enum":["diary_entry"]},
                    "args":{"type":"object","properties":{"text":{"type":"string"},
                              "tags":{"type":["array","null"],"items":{"type":"string"}}},
                            "required":["text","tags"],"additionalProperties":false}},
                   "required":["type","args"],"additionalProperties":false},
                  {"type":"object","properties":{"type":{"type":"string","enum":["idle"]},
                    "args":{"type":"object","properties":{},"required":[],"additionalProperties":false}},
                   "required":["type","args"],"additionalProperties":false}]}}},
                 "required":["thought","commands"],"additionalProperties":false}"""));
    }

    @Test
    void an_argument_of_any_type_gets_the_scalar_types_and_a_free_form_object_leaves_the_schema_not_strict()
            throws Exception {
        ReplySchema reply = ReplySchema.of(List.of(spec("setting_set", "{\"type\":\"object\",\"properties\":"
                + "{\"name\":{\"type\":\"string\"},\"value\":{}},\"required\":[\"name\",\"value\"]}")));
        assertThat(reply.strict()).isTrue();
        assertThat(args(reply, 0).path("properties").path("value").path("type"))
                .isEqualTo(JSON.readTree("[\"string\",\"number\",\"boolean\"]"));

        ReplySchema open = ReplySchema.of(List.of(spec("mcp.files.write", "{\"type\":\"object\",\"properties\":"
                + "{\"meta\":{\"type\":\"object\"}}}")));
        assertThat(open.strict()).as("a strict server would refuse an open object").isFalse();
        assertThat(args(open, 0).path("properties").path("meta").path("type"))
                .isEqualTo(JSON.readTree("[\"object\",\"null\"]"));
    }

    @Test
    void the_registry_s_commands_close_but_for_three_free_form_objects_so_the_registry_s_schema_is_not_strict() {
        List<ToolSpec> commands = CommandTools.commands(Catalogue.builtIn(), List.of());
        ReplySchema reply = ReplySchema.of(commands);

        assertThat(reply.strict()).as("table_insert's row, table_query's where, notes_mode's filter").isFalse();
        assertThat(reply.schema().path("properties").path("commands").path("items").path("anyOf"))
                .hasSize(commands.size());
        assertThat(commands).extracting(ToolSpec::name).contains("send_message", "diary_entry", "help")
                .doesNotContain(CommandTools.USE);
        List<String> open = commands.stream().filter(c -> !ReplySchema.of(List.of(c)).strict()).map(ToolSpec::name)
                .toList();
        assertThat(open).containsExactlyInAnyOrder("table_insert", "table_query", "notes_mode");
    }

    private static JsonNode args(ReplySchema reply, int item) {
        return reply.schema().path("properties").path("commands").path("items").path("anyOf").get(item)
                .path("properties").path("args");
    }
}
