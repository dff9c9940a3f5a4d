package dev.hmpagent.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.llm.ToolCall;
import dev.hmpagent.llm.wire.ToolCallParts;
import org.junit.jupiter.api.Test;

/** OpenAI's tool calls on plain strings: whole in a reply, in interleaved fragments in a stream. */
class ToolCallWireTest {
    private final OpenAiWire wire = new OpenAiWire();

    @Test
    void a_whole_reply_gives_its_message_tool_calls() throws Exception {
        Reply reply = wire.parseReply("{\"model\":\"m\",\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":null,"
                + "\"tool_calls\":[{\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"send_message\","
                + "\"arguments\":\"{\\\"text\\\":\\\"hi\\\"}\"}},{\"id\":\"call_b\",\"type\":\"function\",\"function\":"
                + "{\"name\":\"help\",\"arguments\":{\"type\":\"shell\"}}}]},\"finish_reason\":\"tool_calls\"}]}");

        assertThat(ToolCallParts.assemble(reply.toolCalls())).containsExactly(
                new ToolCall("call_a", "send_message", "{\"text\":\"hi\"}"),
                new ToolCall("call_b", "help", "{\"type\":\"shell\"}"));
        assertThat(reply.text()).isEmpty();
    }

    @Test
    void parallel_calls_streamed_interleaved_are_assembled_by_index() throws Exception {
        StreamAccumulator acc = new StreamAccumulator(wire, 1_000);
        acc.accept(chunk("[{\"index\":0,\"id\":\"call_a\",\"function\":{\"name\":\"send_message\",\"arguments\":\"\"}}]"));
        acc.accept(chunk("[{\"index\":1,\"id\":\"call_b\",\"function\":{\"name\":\"memory_add\",\"arguments\":\"{\\\"ti\"}}]"));
        acc.accept(chunk("[{\"index\":0,\"function\":{\"arguments\":\"{\\\"text\\\": \"}}]"));
        acc.accept(chunk("[{\"index\":1,\"function\":{\"arguments\":\"tle\\\": \\\"x\\\"}\"}}]"));
        acc.accept(chunk("[{\"index\":0,\"function\":{\"arguments\":\"\\\"hi\\\"}\"}}]"));
        acc.accept("[DONE]");

        assertThat(ToolCallParts.assemble(acc.reply().toolCalls())).containsExactly(
                new ToolCall("call_a", "send_message", "{\"text\": \"hi\"}"),
                new ToolCall("call_b", "memory_add", "{\"title\": \"x\"}"));
        assertThat(acc.reply().text()).isEmpty();
    }

    @Test
    void runaway_arguments_end_the_reply_as_cut() throws Exception {
        StreamAccumulator acc = new StreamAccumulator(wire, 10);
        acc.accept(chunk("[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"x\",\"arguments\":\"0123456789ab\"}}]"));

        assertThat(acc.done()).isTrue();
        assertThat(acc.reply().finishReason()).isEqualTo(StreamAccumulator.CUT);
    }

    private static String chunk(String toolCalls) {
        return "{\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":" + toolCalls + "}}]}";
    }
}
