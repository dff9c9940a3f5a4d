package dev.hmpagent.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.TmuxPane.Screen;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The terminal driver itself: on a tiny shell program in tmux, and its screen parser on plain strings. */
@Timeout(60)
class TmuxPaneTest {
    @TempDir Path dir;

    @Test
    void a_program_in_the_pane_gets_typed_keys_shows_dim_text_and_its_exit_code_is_read() throws Exception {
        String program = "printf '\\033[2mfaint words\\033[0m plain words\\n> '; read line; echo \"got:$line\"; exit 3";
        try (TmuxPane pane = TmuxPane.start(dir, Map.of("PATH", "/usr/bin:/bin", "LC_ALL", "C.UTF-8"),
                List.of("sh", "-c", program))) {
            Screen first = pane.await("the question", s -> s.promptLine().equals(">"));
            assertThat(first.above()).containsExactly("faint words plain words");
            assertThat(first.isDim("faint words")).isTrue();
            assertThat(first.isDim("plain words")).isFalse();

            pane.type("typed … text").press("Enter");

            pane.await("the echo", s -> s.contains("got:typed … text"));
            assertThat(pane.awaitExit()).isEqualTo(3);
        }
    }

    @Test
    void the_parser_follows_sgr_state_across_rows_and_ignores_colour_operands() {
        Screen s = Screen.parse("\u001b[2ma dim row\nstill dim\u001b[22m not\n"
                + "\u001b[38;5;2mgreen is not dim\u001b[0m\n\u001b[1;2;38;2;1;2;3mbold dim rgb\u001b[m reset\n", 1);

        assertThat(s.rows()).containsExactly("a dim row", "still dim not", "green is not dim", "bold dim rgb reset");
        assertThat(s.promptLine()).isEqualTo("still dim not");
        assertThat(s.above()).containsExactly("a dim row");
        assertThat(s.isDim("a dim row")).isTrue();
        assertThat(s.isDim("still dim")).isTrue();
        assertThat(s.isDim("not")).isFalse();
        assertThat(s.isDim("green")).isFalse();
        assertThat(s.isDim("bold dim rgb")).isTrue();
        assertThat(s.isDim("reset")).isFalse();
        assertThat(s.justAbove("a dim", 1)).isTrue();
        assertThat(s.justAbove("green", 5)).as("below the cursor is not above it").isFalse();
    }
}
