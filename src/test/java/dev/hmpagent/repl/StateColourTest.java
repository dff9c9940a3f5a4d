package dev.hmpagent.repl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStyle;
import org.junit.jupiter.api.Test;

/** The status line shows a stopped agent's state in colour: red locked or stopped, yellow paused or resting. */
class StateColourTest {
    /** A live screen that keeps the status line as drawn, styles and all. */
    static final class StyledScreen implements Screen {
        volatile List<AttributedString> status = List.of();

        @Override public void above(AttributedString line) { }
        @Override public void live(List<AttributedString> lines) { }
        @Override public void status(List<AttributedString> lines) { status = List.copyOf(lines); }
        @Override public boolean hasLiveRegion() { return true; }
        @Override public int width() { return 120; }
    }

    private static AttributedString drawn(String statusLine) {
        StyledScreen screen = new StyledScreen();
        EventRenderer renderer = new EventRenderer(screen, "agent.db", java.time.Clock.systemUTC(), Verbosity.QUIET,
                new EventRenderer.Facts() {
                    @Override public TokenFigures tokens() { return new TokenFigures(0, 0, 0, 0, 0, 0); }
                    @Override public int queued() { return 0; }
                    @Override public String statusLine() { return statusLine; }
                }, Costs.NONE);
        renderer.refresh();
        return screen.status.get(0);
    }


    @Test
    void a_lockout_is_red_and_the_rest_of_the_line_dim() {
        AttributedString line = drawn("SAFETY_LOCKOUT · waiting for event · tick 12 · test-model");

        assertThat(line.toString()).isEqualTo("SAFETY_LOCKOUT · waiting for event · tick 12 · test-model");
        assertThat(line.styleAt(0)).isEqualTo(AttributedStyle.BOLD.foreground(AttributedStyle.RED));
        assertThat(line.styleAt(line.length() - 1)).isEqualTo(AttributedStyle.DEFAULT.faint());
    }

    @Test
    void a_pause_and_a_rest_are_yellow_and_a_halt_red_with_its_reason() {
        assertThat(drawn("ERROR_PAUSED · idle").styleAt(0)).isEqualTo(AttributedStyle.BOLD.foreground(AttributedStyle.YELLOW));
        assertThat(drawn("RESTING · idle").styleAt(0)).isEqualTo(AttributedStyle.BOLD.foreground(AttributedStyle.YELLOW));
        AttributedString halted = drawn("STOPPED(halt) · idle");
        assertThat(halted.styleAt("STOPPED(halt)".length() - 1)).isEqualTo(AttributedStyle.BOLD.foreground(AttributedStyle.RED));
    }

    @Test
    void active_stays_dim() {
        assertThat(drawn("ACTIVE · waiting for event").styleAt(0)).isEqualTo(AttributedStyle.DEFAULT.faint());
    }
}
