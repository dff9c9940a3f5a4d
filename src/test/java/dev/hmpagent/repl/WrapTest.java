package dev.hmpagent.repl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;
import org.junit.jupiter.api.Test;

/** Lines broken between words, each under its own mark, never wider than the screen. */
class WrapTest {
    @Test
    void words_are_never_cut_and_the_rows_hang_under_the_agents_text() {
        String message = "agent> The build failed because the test expects a configuration file that is missing.";
        assertThat(Wrap.rows(message, 30)).containsExactly(
                "agent> The build failed",
                "       because the test",
                "       expects a configuration",
                "       file that is missing.");
    }

    @Test
    void each_line_keeps_its_own_indent_and_mark() {
        String text = "· a notice that runs on past the edge\n       • a bullet whose words go on and on";
        assertThat(Wrap.rows(text, 24)).containsExactly(
                "· a notice that runs on",
                "  past the edge",
                "       • a bullet whose",
                "         words go on and",
                "         on");
    }

    @Test
    void a_word_wider_than_the_row_is_cut_where_the_row_ends() {
        assertThat(Wrap.rows("see https://example.com/a/very/long/path/indeed", 20))
                .containsExactly("see", "https://example.com/", "a/very/long/path/ind", "eed");
    }

    @Test
    void a_line_that_fits_is_left_as_it_is_and_styles_survive_the_breaks() {
        assertThat(Wrap.rows("short line\n\nafter a blank", 40)).containsExactly("short line", "", "after a blank");
        AttributedString bold = new AttributedStringBuilder().append("plain words then ")
                .styled(AttributedStyle.BOLD, "bold words here").toAttributedString();
        AttributedString wrapped = Wrap.lines(bold, 20);
        assertThat(wrapped.toString()).isEqualTo("plain words then\nbold words here");
        assertThat(wrapped.styleAt(wrapped.toString().indexOf("bold")).getStyle())
                .isEqualTo(AttributedStyle.BOLD.getStyle());
    }

    @Test
    void wide_characters_count_two_columns() {
        List<String> rows = Wrap.rows("漢字 漢字 漢字", 9);
        assertThat(rows).containsExactly("漢字 漢字", "漢字");
    }
}
