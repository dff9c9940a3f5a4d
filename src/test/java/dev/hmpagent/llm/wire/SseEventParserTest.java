package dev.hmpagent.llm.wire;

import okio.Buffer;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SseEventParserTest {

    private static List<String> events(String stream) throws ReplyException {
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
    void each_blank_line_ends_one_event_with_its_data() throws IOException {
        assertThat(events("data: {\"a\":1}\n\ndata: [DONE]\n\n")).containsExactly("{\"a\":1}", "[DONE]");
    }

    @Test
    void comments_and_other_fields_are_ignored() throws IOException {
        assertThat(events(": keep-alive\nevent: message\nid: 7\nretry: 100\ndata: x\n\n")).containsExactly("x");
    }

    @Test
    void data_without_a_space_after_the_colon_is_accepted() throws IOException {
        assertThat(events("data:{\"b\":2}\n\n")).containsExactly("{\"b\":2}");
    }

    @Test
    void several_data_lines_join_with_newlines() throws IOException {
        assertThat(events("data: one\ndata: two\n\n")).containsExactly("one\ntwo");
    }

    @Test
    void an_unterminated_last_event_is_still_delivered_at_end_of_stream() throws IOException {
        assertThat(events("data: last")).containsExactly("last");
    }

    @Test
    void blank_lines_without_data_produce_nothing() throws IOException {
        assertThat(events("\n\n\n")).isEmpty();
    }

    @Test
    void lines_end_at_lf_or_crlf_and_the_last_may_lack_a_terminator() throws IOException {
        Buffer source = new Buffer().writeUtf8("data: a\r\n\ndata: b\n: c");

        assertThat(SseEventParser.nextLine(source).text()).isEqualTo("data: a");
        assertThat(SseEventParser.nextLine(source).text()).isEmpty();
        assertThat(SseEventParser.nextLine(source).text()).isEqualTo("data: b");
        assertThat(SseEventParser.nextLine(source).text()).isEqualTo(": c");
        assertThat(SseEventParser.nextLine(source)).isNull();
    }

    @Test
    void a_line_of_exactly_the_limit_is_read() throws IOException {
        String line = "z".repeat(SseEventParser.MAX_BYTES);
        Buffer source = new Buffer().writeUtf8(line + "\n");

        assertThat(SseEventParser.nextLine(source).text()).isEqualTo(line);
    }

    @Test
    void a_longer_line_is_cut_at_the_limit_without_reading_all_of_it() throws IOException {
        Buffer source = new Buffer().writeUtf8("x".repeat(2 * 1024 * 1024));

        SseEventParser.Line line = SseEventParser.nextLine(source);

        assertThat(line.cut()).isTrue();
        assertThat(line.text()).hasSize(SseEventParser.MAX_BYTES).matches("x+");
        assertThat(source.size()).as("the rest stays unread").isGreaterThanOrEqualTo(1024 * 1024 - 1);
    }

    @Test
    void a_cut_line_ends_on_a_whole_utf8_character() throws IOException {
        Buffer source = new Buffer().writeUtf8("x" + "\u044f".repeat(SseEventParser.MAX_BYTES));   // two bytes each

        SseEventParser.Line line = SseEventParser.nextLine(source);

        assertThat(line.cut()).isTrue();
        assertThat(line.text()).startsWith("x\u044f").doesNotContain("\ufffd");
        assertThat(line.text().length()).isEqualTo(1 + (SseEventParser.MAX_BYTES - 1) / 2);
    }

    @Test
    void an_event_whose_data_lines_add_up_to_more_than_the_limit_is_cut_there_and_delivered() {
        SseEventParser parser = new SseEventParser();
        String half = "data: " + "y".repeat(SseEventParser.MAX_BYTES / 2 + 1);

        assertThat(parser.line(half)).isNull();
        String event = parser.line(half);

        assertThat(parser.cut()).isTrue();
        assertThat(event).hasSize(SseEventParser.MAX_BYTES).startsWith("yyy");
    }

    @Test
    void a_cut_data_line_ends_its_event_with_what_fit() {
        SseEventParser parser = new SseEventParser();

        assertThat(parser.line("data: a")).isNull();
        assertThat(parser.cutLine("data: {\"text\": \"bbb")).isEqualTo("a\n{\"text\": \"bbb");
        assertThat(parser.cut()).isTrue();
    }
}
