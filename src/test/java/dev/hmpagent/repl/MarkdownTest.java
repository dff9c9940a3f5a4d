package dev.hmpagent.repl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.event.AgentEvent;
import java.time.Clock;
import java.util.List;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStyle;
import org.junit.jupiter.api.Test;

/** The agent's markdown on a terminal with styles: the markers become styles; without styles the text as written. */
class MarkdownTest {
    static final String REPLY = """
            ## Plan

            This is **important** and *subtle*; run `make test` first.

            - one
            - two, with a longer line
              that goes on

            1. first
            2. second

            ```bash
            make test
            echo done
            ```

            > quoted

            See [the docs](https://example.com/docs).""";

    static boolean has(AttributedString s, String word, long attribute) {
        int at = s.toString().indexOf(word);
        assertThat(at).as(word + " in " + s).isNotNegative();
        return (s.styleAt(at).getStyle() & attribute) != 0;
    }

    @Test
    void markers_become_styles_and_blocks_keep_their_shape() {
        AttributedString s = Markdown.render(REPLY);
        assertThat(s.toString()).isEqualTo("""
                Plan

                This is important and subtle; run make test first.

                • one
                • two, with a longer line
                  that goes on

                1. first
                2. second

                  make test
                  echo done

                │ quoted

                See the docs (https://example.com/docs).""");
        long bold = AttributedStyle.BOLD.getStyle();
        assertThat(has(s, "Plan", bold)).as("the heading is bold").isTrue();
        assertThat(has(s, "important", bold)).isTrue();
        assertThat(has(s, "subtle", AttributedStyle.DEFAULT.italic().getStyle())).isTrue();
        assertThat(has(s, "This", bold)).as("plain text stays plain").isFalse();
        assertThat(s.styleAt(s.toString().indexOf("make test")))
                .as("inline code has a colour").isNotEqualTo(AttributedStyle.DEFAULT);
        assertThat(s.styleAt(s.toString().indexOf("echo done"))).as("a code block too").isNotEqualTo(AttributedStyle.DEFAULT);
    }

    @Test
    void nothing_the_model_wrote_is_lost_to_the_parser() {
        assertThat(Markdown.render("See [the spec][1] and ![a chart](c.png).\n\n[1]: https://spec.commonmark.org").toString())
                .isEqualTo("See the spec (https://spec.commonmark.org) and a chart (c.png).\n\n"
                        + "[1]: https://spec.commonmark.org");
        assertThat(Markdown.render("3 * 4 * 5 = 60, snake_case_name stays, <b>tag</b> too").toString())
                .isEqualTo("3 * 4 * 5 = 60, snake_case_name stays, <b>tag</b> too");
    }

    @Test
    void a_message_is_rendered_under_its_mark_only_where_styles_reach_the_person() {
        RecordingScreen colour = new RecordingScreen(true, 80, true);
        RecordingScreen plain = new RecordingScreen(true, 80, false);
        AgentEvent.MessageToUser m = new AgentEvent.MessageToUser(3, 9, "**Done.** Files:\n- `a.txt`\n- `b.txt`");
        for (RecordingScreen screen : List.of(colour, plain)) {
            new EventRenderer(screen, "agent.db", Clock.systemUTC(), Verbosity.QUIET, EventRenderer.Facts.NONE,
                    new Costs(List.of())).emit(m);
        }
        assertThat(colour.answers).containsExactly("agent> Done. Files:\n\n       • a.txt\n       • b.txt");
        assertThat(plain.answers).as("--no-color: as the model wrote it")
                .containsExactly("agent> **Done.** Files:\n       - `a.txt`\n       - `b.txt`");
    }
}
