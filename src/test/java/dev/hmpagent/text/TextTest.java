package dev.hmpagent.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TextTest {
    @Test
    void a_wait_is_said_in_whole_seconds_rounded_up_then_in_minutes() {
        assertThat(Text.duration(Duration.ZERO)).isEqualTo("1 s");
        assertThat(Text.duration(Duration.ofMillis(1001))).isEqualTo("2 s");
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
}
