package dev.hmpagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import dev.hmpagent.testing.MutableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The four tools of `agent mcp serve`, called without a transport: their schemas, their arguments, their errors. */
@Timeout(30)
class ControlToolsTest {
    final List<String> calls = new ArrayList<>();
    final McpJsonMapper json = new JacksonMcpJsonMapper(new ObjectMapper());
    final Controls controls = new Controls() {
        @Override
        public Answer note(String text, int priority, String tags) {
            calls.add("note " + text + " " + priority + " " + tags);
            return Answer.ok("note 1 queued");
        }

        @Override
        public Answer status() {
            calls.add("status");
            return Answer.ok("{}");
        }

        @Override
        public Answer log(int count, boolean asJson) {
            calls.add("log " + count + " " + asJson);
            return Answer.ok("tick 1");
        }

        @Override
        public Answer tick(long tick, boolean prompt, boolean asJson) {
            calls.add("tick " + tick + " " + prompt + " " + asJson);
            return Answer.failure("there is no tick " + tick);
        }

        @Override
        public Answer halt(String reason) {
            throw new IllegalStateException("the file went away\nsecond line");
        }
    };
    final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    final List<SyncToolSpecification> tools = ControlTools.all(controls, json, new PeerNoteLimits(clock));

    CallToolResult call(String tool, Map<String, Object> arguments) {
        SyncToolSpecification spec = tools.stream().filter(t -> t.tool().name().equals(tool)).findFirst().orElseThrow();
        return spec.callHandler().apply(null, new McpSchema.CallToolRequest(tool, arguments));
    }

    static String text(CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    @Test
    void there_are_four_tools_each_with_an_object_schema_that_takes_nothing_else_and_no_unlock() {
        assertThat(tools).extracting(t -> t.tool().name()).containsExactly("note", "status", "log", "halt");
        for (SyncToolSpecification t : tools) {
            assertThat(t.tool().description()).isNotBlank();
            assertThat(t.tool().inputSchema()).containsEntry("type", "object")
                    .containsEntry("additionalProperties", false);
        }
        assertThat(tools.stream().filter(t -> t.tool().name().equals("note")).findFirst().orElseThrow()
                .tool().inputSchema().get("required")).isEqualTo(List.of("text"));
    }

    @Test
    void good_arguments_reach_the_controls_with_their_defaults() {
        assertThat(call("note", Map.of("text", "hello", "priority", 3, "tags", "ops")).isError()).isFalse();
        call("note", Map.of("text", "again"));
        call("log", Map.of());
        call("log", Map.of("count", 5, "json", true));
        call("log", Map.of("tick", 7, "prompt", true));
        assertThat(text(call("status", null))).isEqualTo("{}");

        assertThat(calls).containsExactly("note hello 3 ops", "note again 0 null", "log 20 false", "log 5 true",
                "tick 7 true false", "status");
    }

    @Test
    void bad_arguments_are_one_line_errors_that_say_what_was_wrong_and_reach_nothing() {
        assertThat(bad("note", Map.of())).isEqualTo("bad arguments: note needs \"text\", a non-empty string"
                + " (it was not given)");
        assertThat(bad("note", Map.of("text", "  "))).contains("\"text\"").contains("non-empty");
        assertThat(bad("note", Map.of("text", "x", "priority", 1.5))).contains("\"priority\" must be a whole number");
        assertThat(bad("note", Map.of("text", "x", "source", "user"))).isEqualTo("bad arguments: note takes only"
                + " [priority, tags, text], not [source]");
        assertThat(bad("log", Map.of("count", 0))).isEqualTo("bad arguments: log: \"count\" must be a whole number"
                + " from 1 to 200 (it was 0)");
        assertThat(bad("log", Map.of("prompt", true))).contains("\"prompt\" needs \"tick\"");
        assertThat(bad("log", Map.of("tick", "seven"))).contains("\"tick\" must be a whole number");
        assertThat(bad("log", Map.of("json", "yes"))).contains("\"json\" must be true or false");
        assertThat(bad("halt", Map.of())).contains("halt needs \"reason\"");
        assertThat(bad("status", Map.of("verbose", true))).isEqualTo("bad arguments: status takes no arguments,"
                + " not [verbose]");
        assertThat(calls).isEmpty();
    }

    @Test
    void a_failed_act_is_a_tool_error_of_one_line() {
        CallToolResult noTick = call("log", Map.of("tick", 9));
        assertThat(noTick.isError()).isTrue();
        assertThat(text(noTick)).isEqualTo("there is no tick 9");

        CallToolResult thrown = call("halt", Map.of("reason", "enough"));
        assertThat(thrown.isError()).isTrue();
        assertThat(text(thrown)).isEqualTo("halt failed: the file went away second line");
    }

    @Test
    void a_note_over_64_kb_is_refused_in_one_line_that_says_the_limit_and_nothing_reaches_the_controls() {
        String big = "x".repeat(2 * 1024 * 1024);
        CallToolResult refused = call("note", Map.of("text", big));
        assertThat(refused.isError()).isTrue();
        assertThat(text(refused)).isEqualTo("note refused: it is 2,097,152 bytes, over the 65,536-byte (64 KB) limit"
                + " of a peer's note; nothing was stored: send a shorter note, or write the text to a file and send"
                + " its path");
        // counted in UTF-8 bytes: 32,768 two-byte letters are 64 KB exactly, one more is over
        assertThat(call("note", Map.of("text", "é".repeat(32 * 1024))).isError()).isFalse();
        assertThat(text(call("note", Map.of("text", "é".repeat(32 * 1024 + 1))))).startsWith("note refused: it is"
                + " 65,538 bytes");
        assertThat(calls).hasSize(1);
    }

    @Test
    void ten_notes_pass_at_once_then_one_a_second_and_a_refusal_says_when_to_retry() {
        for (int i = 1; i <= 10; i++) assertThat(call("note", Map.of("text", "n" + i)).isError()).isFalse();
        CallToolResult eleventh = call("note", Map.of("text", "n11"));
        assertThat(eleventh.isError()).isTrue();
        assertThat(text(eleventh)).isEqualTo("note refused: this peer sent more than 10 notes in a row (the limit is"
                + " 10 at once, then 1 a second); nothing was stored: retry in 1.0 s");
        clock.advance(Duration.ofMillis(400));
        assertThat(text(call("note", Map.of("text", "n12")))).endsWith("retry in 0.6 s");
        clock.advance(Duration.ofMillis(600));
        assertThat(call("note", Map.of("text", "n13")).isError()).isFalse();
        assertThat(call("note", Map.of("text", "n14")).isError()).isTrue();
        // status, log and halt are not notes: the bucket does not hold them back
        assertThat(call("status", Map.of()).isError()).isFalse();
        clock.advance(Duration.ofHours(1));
        for (int i = 1; i <= 10; i++) assertThat(call("note", Map.of("text", "m" + i)).isError()).isFalse();
        assertThat(call("note", Map.of("text", "m11")).isError()).as("a quiet hour refills ten, not more").isTrue();
        assertThat(calls.stream().filter(c -> c.startsWith("note ")).count()).isEqualTo(21);
    }

    String bad(String tool, Map<String, Object> arguments) {
        CallToolResult result = call(tool, arguments);
        assertThat(result.isError()).as(tool + " " + arguments).isTrue();
        assertThat(text(result)).doesNotContain("\n");
        return text(result);
    }
}
