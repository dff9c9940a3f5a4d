package dev.hmpagent.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TextTest {
    @Test
    void a_wait_is_said_as_it_is_to_the_tenth_under_10_s_then_in_seconds_then_in_minutes() {
        assertThat(Text.duration(Duration.ZERO)).isEqualTo("0.1 s");
        assertThat(Text.duration(Duration.ofMillis(1001))).isEqualTo("1 s");
        assertThat(Text.duration(Duration.ofMillis(1250))).as("said as it is, not rounded up to 2 s").isEqualTo("1.3 s");
        assertThat(Text.duration(Duration.ofMillis(1949))).isEqualTo("1.9 s");
        assertThat(Text.duration(Duration.ofMillis(9_949))).isEqualTo("9.9 s");
        assertThat(Text.duration(Duration.ofMillis(9_950))).isEqualTo("10 s");
        assertThat(Text.duration(Duration.ofMillis(10_400))).isEqualTo("10 s");
        assertThat(Text.duration(Duration.ofSeconds(119))).isEqualTo("119 s");
        assertThat(Text.duration(Duration.ofSeconds(120))).isEqualTo("2 min");
        assertThat(Text.duration(Duration.ofSeconds(179))).isEqualTo("2 min");
    }

    @Test
    void one_line_folds_white_space_and_cuts_with_an_ellipsis() {
        assertThat(Text.oneLine("  a\n\tb  c ", 10)).isEqualTo("a b c");
        assertThat(Text.oneLine("abcdef", 3)).isEqualTo("abc…");
        assertThat(Text.oneLine(null, 3)).isEmpty();
    }

    @Test
    void cut_keeps_max_characters_and_fit_stays_within_the_width() {
        assertThat(Text.cut("abcdef", 6)).isEqualTo("abcdef");
        assertThat(Text.cut("abcdef", 4)).isEqualTo("abcd…");
        assertThat(Text.fit("abcdef", 6)).isEqualTo("abcdef");
        assertThat(Text.fit("abcdef", 4)).isEqualTo("abc…").hasSize(4);
        assertThat(Text.fit("abcdef", 0)).isEqualTo("…");
    }

    @Test
    void a_cut_never_splits_a_surrogate_pair() {
        String smile = "\uD83D\uDE00";   // one code point, two chars
        assertThat(Text.cut("a" + smile + "b", 2)).isEqualTo("a…");
        assertThat(Text.fit("a" + smile + "b", 3)).isEqualTo("a…");
        assertThat(Text.cut(smile + smile, 2)).isEqualTo(smile + "…");
    }

    @Test
    void the_first_line_skips_blank_lines_before_it_and_strips_it() {
        assertThat(Text.firstLine("\n\n  first  \nsecond")).isEqualTo("first");
        assertThat(Text.firstLine("only")).isEqualTo("only");
        assertThat(Text.firstLine("  \n ")).isEmpty();
        assertThat(Text.firstLine(null)).isEmpty();
        assertThat(Text.collapse(" a \n\n b\t")).isEqualTo("a b");
    }
}
