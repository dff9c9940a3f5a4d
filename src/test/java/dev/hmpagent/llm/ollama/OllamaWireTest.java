package dev.hmpagent.llm.ollama;

import dev.hmpagent.llm.wire.ReplyException;
import org.junit.jupiter.api.Test;

import static dev.hmpagent.llm.ollama.ServerCounts.NOT_SENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Reply objects parsed from plain strings, as Ollama's documentation shows them. */
class OllamaWireTest {
    private final OllamaWire wire = new OllamaWire();

    private OllamaChunk parse(String line) throws ReplyException {
        return wire.parse(line);
    }

    @Test
    void a_stream_line_carries_text_and_no_counts() throws ReplyException {
        OllamaChunk chunk = parse("{\"model\":\"llama3.2\",\"created_at\":\"2023-08-04T08:52:19.385406455-07:00\","
                + "\"message\":{\"role\":\"assistant\",\"content\":\"The\",\"images\":null},\"done\":false}");

        assertThat(chunk).isEqualTo(new OllamaChunk("The", "llama3.2", false, "", null));
    }

    @Test
    void the_final_line_carries_done_reason_and_counts_and_may_lack_a_message() throws ReplyException {
        OllamaChunk chunk = parse("{\"model\":\"llama3.2\",\"created_at\":\"2023-08-04T19:22:45.499127Z\",\"done\":true,"
                + "\"done_reason\":\"stop\",\"total_duration\":4883583458,\"load_duration\":1334875,"
                + "\"prompt_eval_count\":26,\"prompt_eval_duration\":342546000,\"eval_count\":282,"
                + "\"eval_duration\":4535599000}");

        assertThat(chunk).isEqualTo(new OllamaChunk("", "llama3.2", true, "stop", new ServerCounts(26, 282, NOT_SENT)));
    }

    @Test
    void the_cached_count_is_read_and_nonsense_counts_are_not_sent() throws ReplyException {
        assertThat(parse("{\"done\":true,\"prompt_eval_count\":29,\"prompt_eval_cached_count\":0,\"eval_count\":3}")
                .counts()).isEqualTo(new ServerCounts(29, 3, 0));
        assertThat(parse("{\"done\":true,\"prompt_eval_count\":-4,\"eval_count\":\"3\",\"prompt_eval_cached_count\":1.5}")
                .counts()).isNull();
    }

    @Test
    void thinking_tool_calls_and_unknown_fields_are_ignored() throws ReplyException {
        OllamaChunk chunk = parse("{\"model\":\"qwen3\",\"message\":{\"role\":\"assistant\",\"content\":\"\","
                + "\"thinking\":\"Let me see.\",\"tool_calls\":[]},\"done\":false,\"logprobs\":null}");

        assertThat(chunk.text()).isEmpty();
        assertThat(chunk.done()).isFalse();
    }

    @Test
    void an_error_object_is_a_stream_error() {
        assertThatThrownBy(() -> parse("{\"error\":\"an error was encountered while running the model\"}"))
                .isInstanceOfSatisfying(ReplyException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ReplyException.STREAM_ERROR);
                    assertThat(e.getMessage()).isEqualTo("server reported an error: an error was encountered while"
                            + " running the model");
                });
        assertThatThrownBy(() -> parse("{\"error\":{\"message\":\"odd\"}}"))
                .isInstanceOfSatisfying(ReplyException.class, e -> assertThat(e.getMessage()).contains("odd"));
    }

    @Test
    void what_is_not_a_reply_object_is_malformed() {
        for (String text : new String[] {"{oops", "[1,2]", "\"text\"", "{\"model\":\"llama3.2\"}"}) {
            assertThatThrownBy(() -> parse(text)).as(text).isInstanceOfSatisfying(ReplyException.class,
                    e -> assertThat(e.kind()).isEqualTo(ReplyException.BAD_RESPONSE));
        }
    }

    @Test
    void the_error_text_of_a_failed_status_is_the_error_string() {
        assertThat(wire.errorMessage("{\"error\":\"model 'llama3.2' not found\"}")).isEqualTo("model 'llama3.2' not found");
        assertThat(wire.errorMessage("{\"error\":\"unauthorized\",\"signin_url\":\"https://ollama.com/connect\"}"))
                .isEqualTo("unauthorized");
        assertThat(wire.errorMessage("404 page not found")).isNull();
        assertThat(wire.errorMessage("")).isNull();
    }

    @Test
    void the_show_body_names_only_the_model() {
        assertThat(wire.showBody("llama3.2")).isEqualTo("{\"model\":\"llama3.2\"}");
    }
}
