package dev.hmpagent.llm.openai;

import dev.hmpagent.llm.wire.ReplyException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StreamAccumulatorTest {
    private final StreamAccumulator acc = new StreamAccumulator(new OpenAiWire(), 1_000);

    @Test
    void chunks_are_concatenated_and_usage_finish_and_model_recorded() throws Exception {
        assertThat(acc.accept("{\"model\":\"m1\",\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}")).isEmpty();
        assertThat(acc.accept("{\"model\":\"m1\",\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}")).isEqualTo("Hel");
        assertThat(acc.accept("{\"model\":\"m1\",\"choices\":[{\"delta\":{\"content\":\"lo\"},\"finish_reason\":\"stop\"}]}"))
                .isEqualTo("lo");
        assertThat(acc.accept("{\"model\":\"m1\",\"choices\":[],\"usage\":{\"prompt_tokens\":11,\"completion_tokens\":2}}"))
                .isEmpty();
        assertThat(acc.accept("[DONE]")).isEmpty();

        assertThat(acc.done()).isTrue();
        assertThat(acc.reply()).isEqualTo(new Reply("Hello", "m1", "stop", new ServerUsage(11, 2)));
    }

    @Test
    void null_content_and_null_finish_reason_count_as_absent() throws Exception {
        acc.accept("{\"choices\":[{\"delta\":{\"content\":null},\"finish_reason\":null}]}");
        assertThat(acc.reply()).isEqualTo(new Reply("", "", "", null));
    }

    @Test
    void malformed_chunk_is_a_bad_response() {
        assertThatThrownBy(() -> acc.accept("{\"choices\":[{\"delta\":"))
                .isInstanceOfSatisfying(ReplyException.class, e -> assertThat(e.kind()).isEqualTo("bad_response"));
    }

    @Test
    void error_object_in_the_stream_is_a_stream_error() {
        assertThatThrownBy(() -> acc.accept("{\"error\":{\"message\":\"overloaded\"}}"))
                .isInstanceOfSatisfying(ReplyException.class, e -> {
                    assertThat(e.kind()).isEqualTo("stream_error");
                    assertThat(e.getMessage()).contains("overloaded");
                });
    }

    @Test
    void a_reply_is_complete_with_done_or_a_finish_reason_and_not_without_both() throws Exception {
        acc.accept("{\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}");
        assertThat(acc.complete()).isFalse();

        StreamAccumulator finished = new StreamAccumulator(new OpenAiWire(), 1_000);
        finished.accept("{\"choices\":[{\"delta\":{},\"finish_reason\":\"length\"}]}");
        assertThat(finished.complete()).isTrue();

        StreamAccumulator done = new StreamAccumulator(new OpenAiWire(), 1_000);
        done.accept("[DONE]");
        assertThat(done.complete()).isTrue();
    }

    @Test
    void a_runaway_reply_is_cut_at_the_cap_and_reading_stops_there() throws Exception {
        StreamAccumulator small = new StreamAccumulator(new OpenAiWire(), 5);
        assertThat(small.accept("{\"choices\":[{\"delta\":{\"content\":\"abc\"}}]}")).isEqualTo("abc");
        assertThat(small.accept("{\"choices\":[{\"delta\":{\"content\":\"defgh\"}}]}")).isEqualTo("de");
        assertThat(small.done()).as("nothing more is read").isTrue();
        assertThat(small.complete()).isTrue();
        assertThat(small.reply().text()).isEqualTo("abcde");
        assertThat(small.reply().finishReason()).isEqualTo("length");
    }

    @Test
    void a_cut_never_falls_between_the_halves_of_a_surrogate_pair() throws Exception {
        StreamAccumulator small = new StreamAccumulator(new OpenAiWire(), 5);
        // "abcd" then an emoji (two chars): the fifth char is its first half, which is no character alone
        assertThat(small.accept("{\"choices\":[{\"delta\":{\"content\":\"abcd\\ud83d\\ude00x\"}}]}"))
                .isEqualTo("abcd");
        assertThat(small.reply().text()).isEqualTo("abcd");
        assertThat(small.reply().finishReason()).isEqualTo("length");
        assertThat(small.done()).isTrue();
    }
}
