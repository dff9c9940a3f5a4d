package dev.hmpagent.llm.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.llm.ToolCall;
import dev.hmpagent.llm.wire.ToolCallParts;
import org.junit.jupiter.api.Test;

/** Anthropic's tool_use blocks on plain strings: in a whole message, and streamed beside text. */
class ToolUseWireTest {
    private final AnthropicWire wire = new AnthropicWire();

    @Test
    void a_whole_message_gives_its_text_and_its_tool_use_blocks() throws Exception {
        Reply reply = wire.parseMessage("{\"type\":\"message\",\"model\":\"claude-x\",\"content\":["
                + "{\"type\":\"text\",\"text\":\"Saying hi.\"},{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":"
                + "\"send_message\",\"input\":{\"text\":\"hi\"}}],\"stop_reason\":\"tool_use\",\"usage\":"
                + "{\"input_tokens\":5,\"output_tokens\":3}}");

        assertThat(reply.text()).isEqualTo("Saying hi.");
        assertThat(ToolCallParts.assemble(reply.toolCalls()))
                .containsExactly(new ToolCall("toolu_1", "send_message", "{\"text\":\"hi\"}"));
    }

    @Test
    void a_streamed_tool_use_joins_its_input_json_deltas_and_a_call_without_input_has_empty_arguments()
            throws Exception {
        AnthropicStream stream = new AnthropicStream(wire, 1_000);
        stream.accept("{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\","
                + "\"id\":\"toolu_1\",\"name\":\"memory_add\",\"input\":{}}}");
        stream.accept("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\","
                + "\"partial_json\":\"{\\\"title\\\": \"}}");
        stream.accept("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\","
                + "\"partial_json\":\"\\\"x\\\"}\"}}");
        stream.accept("{\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\","
                + "\"id\":\"toolu_2\",\"name\":\"help\",\"input\":{}}}");
        stream.accept("{\"type\":\"message_stop\"}");

        assertThat(ToolCallParts.assemble(stream.reply().toolCalls())).containsExactly(
                new ToolCall("toolu_1", "memory_add", "{\"title\": \"x\"}"), new ToolCall("toolu_2", "help", ""));
    }
}
