package dev.hmpagent.llm.wire;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StreamStateTest {
    private final StreamState<String> state = new StreamState<>(10);

    @Test
    void the_last_model_finish_reason_and_usage_given_are_kept_and_absent_ones_leave_them() {
        state.take("m1", "", "u1", List.of());
        state.take("", "stop", null, List.of());
        state.take("m2", "", null, List.of());

        assertThat(state.model()).isEqualTo("m2");
        assertThat(state.finishReason()).isEqualTo("stop");
        assertThat(state.usage()).isEqualTo("u1");
        assertThat(state.cut()).isFalse();
    }

    @Test
    void text_beyond_max_chars_is_cut_there_with_finish_reason_length() {
        assertThat(state.append("abcdefgh")).isEqualTo("abcdefgh");
        assertThat(state.append("ijkl")).isEqualTo("ij");

        assertThat(state.text()).isEqualTo("abcdefghij");
        assertThat(state.finishReason()).isEqualTo(Bodies.CUT);
        assertThat(state.cut()).isTrue();
    }

    @Test
    void tool_arguments_beyond_max_chars_cut_the_reply_and_the_pieces_are_kept_in_order() {
        ToolCallPart first = new ToolCallPart(0, "c1", "run", "{\"a\":");
        ToolCallPart second = new ToolCallPart(0, "", "", "\"0123456\"}");
        state.take("", "", null, List.of(first));
        assertThat(state.cut()).isFalse();
        state.take("", "stop", null, List.of(second));

        assertThat(state.parts()).containsExactly(first, second);
        assertThat(state.finishReason()).as("the cut wins over the server's reason").isEqualTo(Bodies.CUT);
        assertThat(state.cut()).isTrue();
    }

    @Test
    void a_too_large_event_ends_the_reply_with_event_cut() {
        state.append("abc");
        state.endCut();

        assertThat(state.text()).isEqualTo("abc");
        assertThat(state.finishReason()).isEqualTo(Bodies.EVENT_CUT);
        assertThat(state.cut()).isTrue();
    }

    @Test
    void fitting_steps_back_over_the_first_half_of_a_surrogate_pair() {
        String smile = "abc\ud83d\ude00";
        assertThat(StreamState.fitting(smile, 4)).isEqualTo(3);
        assertThat(StreamState.fitting(smile, 5)).isEqualTo(5);
        assertThat(StreamState.fitting(smile, 3)).isEqualTo(3);
        assertThat(StreamState.fitting("ab", 10)).isEqualTo(2);
    }

    @Test
    void max_chars_must_be_positive() {
        assertThatThrownBy(() -> new StreamState<String>(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
