package dev.hmpagent.llm.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.Message;
import dev.hmpagent.llm.wire.ReplyException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The Messages API's JSON, on plain strings: request bodies, events, whole replies and error bodies. */
class AnthropicWireTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final AnthropicWire wire = new AnthropicWire();

    private JsonNode body(List<Message> messages) throws IOException {
        return body(new LlmRequest(messages, 0.5, 100), false);
    }

    private JsonNode body(LlmRequest request, boolean stream) throws IOException {
        return JSON.readTree(wire.requestBody("claude-test-model", request, stream));
    }

    private static JsonNode cached() {
        return JSON.createObjectNode().put("type", "ephemeral");
    }

    // ---- requests ------------------------------------------------------------------------------

    @Test
    void system_messages_become_system_text_blocks_with_a_breakpoint_at_their_end() throws IOException {
        JsonNode body = body(List.of(Message.system("Rules."), Message.system("More rules."), Message.user("Hi")));

        assertThat(body.path("system")).hasSize(2);
        assertThat(body.path("system").get(0).path("type").asText()).isEqualTo("text");
        assertThat(body.path("system").get(0).path("text").asText()).isEqualTo("Rules.");
        assertThat(body.path("system").get(0).has("cache_control")).isFalse();
        assertThat(body.path("system").get(1).path("text").asText()).isEqualTo("More rules.");
        assertThat(body.path("system").get(1).path("cache_control")).isEqualTo(cached());
        assertThat(body.path("messages")).hasSize(1);
        assertThat(body.path("messages").get(0).path("role").asText()).isEqualTo("user");
        assertThat(body.path("messages").get(0).path("content").get(0).path("text").asText()).isEqualTo("Hi");
    }

    @Test
    void a_request_without_system_messages_sends_no_system_field() throws IOException {
        assertThat(body(List.of(Message.user("Hi"))).has("system")).isFalse();
    }

    @Test
    void a_stable_prefix_splits_the_text_in_two_blocks_with_the_breakpoint_on_the_first() throws IOException {
        String text = "memory and pinned entries|time 12:00, tick 7";
        JsonNode body = body(List.of(Message.system("S"), Message.user(text).withStablePrefix(text.indexOf('|') + 1)));

        JsonNode content = body.path("messages").get(0).path("content");
        assertThat(content).hasSize(2);
        assertThat(content.get(0).path("text").asText()).isEqualTo("memory and pinned entries|");
        assertThat(content.get(0).path("cache_control")).isEqualTo(cached());
        assertThat(content.get(1).path("text").asText()).isEqualTo("time 12:00, tick 7");
        assertThat(content.get(1).has("cache_control")).isFalse();
    }

    /** A user message like the cycle's: a stable part, replies (the growing part) and what changes every tick. */
    private static Message tick(String stable, List<String> replies, String rest) {
        StringBuilder text = new StringBuilder(stable);
        List<Integer> seams = new java.util.ArrayList<>();
        for (String r : replies) seams.add(text.append(r).length());
        return Message.user(text.append(rest).toString()).withStablePrefix(stable.length()).withSeams(seams);
    }

    @Test
    void seams_cut_the_growing_part_one_block_a_piece_with_a_breakpoint_at_the_last() throws IOException {
        JsonNode content = body(List.of(Message.system("S"), tick("notebook|", List.of("r1|", "r2|", "r3|"), "time 7")))
                .path("messages").get(0).path("content");

        assertThat(content).extracting(b -> b.path("text").asText())
                .containsExactly("notebook|", "r1|", "r2|", "r3|", "time 7");
        assertThat(content).extracting(b -> b.has("cache_control")).containsExactly(true, false, false, true, false);
        assertThat(content.get(3).path("cache_control")).isEqualTo(cached());
    }

    @Test
    void the_next_ticks_request_repeats_the_blocks_up_to_this_ones_last_breakpoint_and_has_its_own_one_block_on()
            throws IOException {
        JsonNode before = body(List.of(Message.system("S"), tick("notebook|", List.of("r1|", "r2|"), "time 7")))
                .path("messages").get(0).path("content");
        JsonNode after = body(List.of(Message.system("S"), tick("notebook|", List.of("r1|", "r2|", "r3|"), "time 8")))
                .path("messages").get(0).path("content");

        int lastBefore = 2;
        assertThat(before.get(lastBefore).has("cache_control")).isTrue();
        for (int i = 0; i <= lastBefore; i++) {
            assertThat(after.get(i).path("text")).as("block " + i).isEqualTo(before.get(i).path("text"));
        }
        assertThat(after.get(lastBefore + 1).has("cache_control")).as("the breakpoint one block further").isTrue();
        assertThat(after.get(lastBefore).has("cache_control")).isFalse();
    }

    @Test
    void a_wholly_stable_message_is_one_block_with_a_breakpoint_and_no_hint_means_none() throws IOException {
        JsonNode body = body(List.of(Message.user("all stable").withStablePrefix(10), Message.assistant("ok"),
                Message.user("no hint")));

        JsonNode first = body.path("messages").get(0).path("content");
        assertThat(first).hasSize(1);
        assertThat(first.get(0).path("cache_control")).isEqualTo(cached());
        assertThat(body.path("messages").get(2).path("content").get(0).has("cache_control")).isFalse();
    }

    @Test
    void a_split_never_falls_between_the_halves_of_a_surrogate_pair() throws IOException {
        String text = "ab\uD83D\uDE00cd";   // "ab😀cd": the emoji is chars 2 and 3
        JsonNode content = body(List.of(Message.user(text).withStablePrefix(3))).path("messages").get(0).path("content");

        assertThat(content.get(0).path("text").asText()).isEqualTo("ab");
        assertThat(content.get(1).path("text").asText()).isEqualTo("\uD83D\uDE00cd");
    }

    @Test
    void at_most_four_breakpoints_are_sent_and_the_system_prompt_keeps_its_own() throws IOException {
        List<Message> messages = List.of(Message.system("S1").withStablePrefix(1), Message.system("S2"),
                Message.user("u1 stable|rest").withStablePrefix(10), Message.assistant("a1"),
                Message.user("u2 stable|rest").withStablePrefix(10), Message.assistant("a2"),
                Message.user("u3 stable|rest").withStablePrefix(10));

        String sent = wire.requestBody("m", new LlmRequest(messages, 0.5, 100), false);
        JsonNode body = JSON.readTree(sent);

        assertThat(sent.split("\"cache_control\"", -1)).hasSize(1 + AnthropicWire.MAX_BREAKPOINTS);
        assertThat(body.path("system").get(2).path("cache_control")).as("the end of the system prompt").isEqualTo(cached());
        assertThat(body.path("messages").get(4).path("content").get(0).has("cache_control"))
                .as("the last hint found no breakpoint left").isFalse();
        assertThat(body.path("messages").get(4).path("content")).as("and is sent as it came").hasSize(2);
    }

    @Test
    void consecutive_messages_of_one_role_are_merged_and_system_messages_lifted_out() throws IOException {
        JsonNode body = body(List.of(Message.user("one"), Message.system("late rule"), Message.user("two"),
                Message.assistant("three"), Message.assistant("four"), Message.user("five")));

        JsonNode messages = body.path("messages");
        assertThat(messages).hasSize(3);
        assertThat(messages.get(0).path("role").asText()).isEqualTo("user");
        assertThat(messages.get(0).path("content").findValuesAsText("text")).containsExactly("one", "two");
        assertThat(messages.get(1).path("role").asText()).isEqualTo("assistant");
        assertThat(messages.get(1).path("content").findValuesAsText("text")).containsExactly("three", "four");
        assertThat(messages.get(2).path("content").findValuesAsText("text")).containsExactly("five");
        assertThat(body.path("system").get(0).path("text").asText()).isEqualTo("late rule");
    }

    @Test
    void a_conversation_that_would_not_start_with_the_user_gets_a_short_user_turn_first() throws IOException {
        JsonNode assistantFirst = body(List.of(Message.system("S"), Message.assistant("Earlier I said"), Message.user("Go on")));
        JsonNode systemOnly = body(List.of(Message.system("Only rules")));

        assertThat(assistantFirst.path("messages").get(0).path("role").asText()).isEqualTo("user");
        assertThat(assistantFirst.path("messages").get(0).path("content").get(0).path("text").asText())
                .isEqualTo(AnthropicWire.OPENING);
        assertThat(assistantFirst.path("messages").get(1).path("role").asText()).isEqualTo("assistant");
        assertThat(systemOnly.path("messages")).hasSize(1);
        assertThat(systemOnly.path("messages").get(0).path("role").asText()).isEqualTo("user");
    }

    @Test
    void empty_texts_are_left_out() throws IOException {
        JsonNode body = body(List.of(Message.system(""), Message.user("Hi"), Message.assistant(""), Message.user("again")));

        assertThat(body.has("system")).isFalse();
        assertThat(body.path("messages")).hasSize(1);
        assertThat(body.path("messages").get(0).path("content").findValuesAsText("text")).containsExactly("Hi", "again");
    }

    @Test
    void max_tokens_is_sent_the_temperature_clamped_to_0_1_and_penalties_never() throws IOException {
        JsonNode hot = body(new LlmRequest(List.of(Message.user("Hi")), 1.7, 321, 0.5, 0.25), true);
        JsonNode cold = body(new LlmRequest(List.of(Message.user("Hi")), -0.3, 5), false);

        assertThat(hot.path("model").asText()).isEqualTo("claude-test-model");
        assertThat(hot.path("max_tokens").asInt()).isEqualTo(321);
        assertThat(hot.path("temperature").asDouble()).isEqualTo(1.0);
        assertThat(hot.path("stream").asBoolean()).isTrue();
        assertThat(hot.has("presence_penalty")).isFalse();
        assertThat(hot.has("frequency_penalty")).isFalse();
        assertThat(cold.path("temperature").asDouble()).isEqualTo(0.0);
        assertThat(cold.has("stream")).as("stream is only sent when true").isFalse();
        assertThat(body(new LlmRequest(List.of(Message.user("Hi")), 0.7, 5), false).path("temperature").asDouble())
                .isEqualTo(0.7);
    }

    // ---- replies and events --------------------------------------------------------------------

    @Test
    void a_whole_message_joins_its_text_blocks_and_skips_the_others() throws Exception {
        Reply reply = wire.parseMessage("{\"type\":\"message\",\"model\":\"claude-x\",\"content\":["
                + "{\"type\":\"thinking\",\"thinking\":\"hmm\",\"signature\":\"sig\"},{\"type\":\"text\",\"text\":\"Hello\"},"
                + "{\"type\":\"text\",\"text\":\", world\"}],\"stop_reason\":\"max_tokens\",\"usage\":{\"input_tokens\":5,"
                + "\"cache_creation_input_tokens\":100,\"cache_read_input_tokens\":900,\"output_tokens\":7}}");

        assertThat(reply).isEqualTo(new Reply("Hello, world", "claude-x", "length",
                new ServerUsage(5, 100, 900, 7), true));
        assertThat(reply.usage().promptTokens()).isEqualTo(1005);
    }

    @Test
    void stop_reasons_are_ours_where_they_mean_the_same_and_as_given_otherwise() {
        assertThat(AnthropicWire.finishReason(TextNode.valueOf("end_turn"))).isEqualTo("stop");
        assertThat(AnthropicWire.finishReason(TextNode.valueOf("stop_sequence"))).isEqualTo("stop");
        assertThat(AnthropicWire.finishReason(TextNode.valueOf("max_tokens"))).isEqualTo("length");
        assertThat(AnthropicWire.finishReason(TextNode.valueOf("refusal"))).isEqualTo("refusal");
        assertThat(AnthropicWire.finishReason(JSON.nullNode())).isEmpty();
    }

    @Test
    void events_are_told_apart_by_the_type_inside_their_data() throws Exception {
        ServerUsage started = wire.parseEvent("{\"type\":\"message_start\",\"message\":{\"model\":\"claude-x\","
                + "\"usage\":{\"input_tokens\":12,\"cache_read_input_tokens\":30,\"output_tokens\":1}}}", null).usage();
        AnthropicWire.Event delta = wire.parseEvent("{\"type\":\"content_block_delta\",\"index\":0,"
                + "\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}", started);
        AnthropicWire.Event end = wire.parseEvent("{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
                + "\"usage\":{\"output_tokens\":15}}", started);

        assertThat(started).isEqualTo(new ServerUsage(12, 0, 30, 1));
        assertThat(delta.text()).isEqualTo("Hi");
        assertThat(end.finishReason()).isEqualTo("stop");
        assertThat(end.usage()).as("message_delta updates only what it repeats").isEqualTo(new ServerUsage(12, 0, 30, 15));
    }

    @Test
    void thinking_signature_and_tool_input_deltas_are_not_reply_text() throws Exception {
        for (String delta : new String[] {"{\"type\":\"thinking_delta\",\"thinking\":\"let me see\"}",
                "{\"type\":\"signature_delta\",\"signature\":\"EqQB\"}",
                "{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"a\\\":\"}"}) {
            assertThat(wire.parseEvent("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":" + delta + "}", null)
                    .text()).as(delta).isEmpty();
        }
        assertThat(wire.parseEvent("{\"type\":\"content_block_start\",\"index\":0,\"content_block\":"
                + "{\"type\":\"thinking\",\"thinking\":\"\"}}", null).text()).isEmpty();
    }

    @Test
    void pings_stops_and_event_types_added_later_carry_nothing() throws Exception {
        for (String data : new String[] {"{\"type\": \"ping\"}", "{\"type\":\"message_stop\"}",
                "{\"type\":\"content_block_stop\",\"index\":0}", "{\"type\":\"something_new\",\"x\":1}"}) {
            AnthropicWire.Event event = wire.parseEvent(data, null);
            assertThat(event.text()).as(data).isEmpty();
            assertThat(event.usage()).as(data).isNull();
        }
    }

    @Test
    void an_error_event_is_the_servers_error() {
        assertThatThrownBy(() -> wire.parseEvent(
                "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}", null))
                .isInstanceOfSatisfying(ServerError.class,
                        e -> assertThat(e.error()).isEqualTo(new ApiError("overloaded_error", "Overloaded", "")));
    }

    @Test
    void data_that_is_not_a_typed_json_object_is_a_malformed_reply() {
        for (String data : new String[] {"{not json", "[1,2]", "{\"choices\":[]}"}) {
            assertThatThrownBy(() -> wire.parseEvent(data, null)).as(data)
                    .isInstanceOfSatisfying(ReplyException.class, e -> assertThat(e.kind()).isEqualTo("bad_response"));
        }
    }

    @Test
    void error_bodies_give_type_message_and_error_code_and_anything_else_gives_none() {
        assertThat(wire.error("{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"cap\","
                + "\"details\":{\"error_code\":\"enforced_spend_limit_reached\"}},\"request_id\":\"req_1\"}"))
                .isEqualTo(new ApiError("rate_limit_error", "cap", "enforced_spend_limit_reached"));
        assertThat(wire.error("<html>Request Entity Too Large</html>")).isNull();
        assertThat(wire.error("{\"message\":\"no error object\"}")).isNull();
        assertThat(wire.error("")).isNull();
    }

    // ---- collecting a stream -------------------------------------------------------------------

    @Test
    void a_stream_is_whole_at_message_stop_and_its_output_count_final_after_message_delta() throws Exception {
        AnthropicStream stream = new AnthropicStream(wire, 100);
        stream.accept("{\"type\":\"message_start\",\"message\":{\"model\":\"claude-x\",\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}");
        stream.accept("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}");

        assertThat(stream.done()).isFalse();
        assertThat(stream.reply().outputFinal()).isFalse();

        stream.accept("{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":2}}");
        stream.accept("{\"type\":\"message_stop\"}");

        assertThat(stream.done()).isTrue();
        assertThat(stream.reply()).isEqualTo(new Reply("Hi", "claude-x", "stop", new ServerUsage(3, 0, 0, 2), true));
    }

    @Test
    void a_stream_is_cut_at_its_cap_without_splitting_a_surrogate_pair() throws Exception {
        AnthropicStream stream = new AnthropicStream(wire, 5);
        String delta = "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":%s}}";

        assertThat(stream.accept(delta.formatted("\"abcd\""))).isEqualTo("abcd");
        assertThat(stream.accept(delta.formatted("\"\\uD83D\\uDE00!\""))).isEmpty();

        assertThat(stream.done()).isTrue();
        assertThat(stream.reply().text()).isEqualTo("abcd");
        assertThat(stream.reply().finishReason()).isEqualTo("length");
    }
}
