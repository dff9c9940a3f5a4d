package dev.hmpagent.llm.openai;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SseEventParserTest {

    private static List<String> events(String stream) {
        SseEventParser parser = new SseEventParser();
        List<String> out = new ArrayList<>();
        for (String line : stream.split("\n", -1)) {
            String data = parser.line(line);
            if (data != null) out.add(data);
        }
        String rest = parser.finish();
        if (rest != null) out.add(rest);
        return out;
    }

    @Test
    void each_blank_line_ends_one_event_with_its_data() {
        assertThat(events("data: {\"a\":1}\n\ndata: [DONE]\n\n")).containsExactly("{\"a\":1}", "[DONE]");
    }

    @Test
    void comments_and_other_fields_are_ignored() {
        assertThat(events(": keep-alive\nevent: message\nid: 7\nretry: 100\ndata: x\n\n")).containsExactly("x");
    }

    @Test
    void data_without_a_space_after_the_colon_is_accepted() {
        assertThat(events("data:{\"b\":2}\n\n")).containsExactly("{\"b\":2}");
    }

    @Test
    void several_data_lines_join_with_newlines() {
        assertThat(events("data: one\ndata: two\n\n")).containsExactly("one\ntwo");
    }

    @Test
    void an_unterminated_last_event_is_still_delivered_at_end_of_stream() {
        assertThat(events("data: last")).containsExactly("last");
    }

    @Test
    void blank_lines_without_data_produce_nothing() {
        assertThat(events("\n\n\n")).isEmpty();
    }
}
