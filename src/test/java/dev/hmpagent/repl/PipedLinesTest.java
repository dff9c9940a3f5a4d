package dev.hmpagent.repl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PipedLinesTest {
    static List<String> all(PipedLines lines) throws IOException {
        List<String> out = new ArrayList<>();
        for (PipedLines.Line l = lines.next(); l != null; l = lines.next()) {
            out.add(l.refused() ? "refused " + l.refusedLength() : l.text());
        }
        return out;
    }

    @Test
    void lines_end_at_newline_or_crlf_and_the_last_needs_no_newline() throws IOException {
        assertThat(all(new PipedLines(new StringReader("one\r\ntwo\n\nthree\tfour")))).containsExactly("one", "two",
                "", "three\tfour");
        assertThat(all(new PipedLines(new StringReader("")))).isEmpty();
        assertThat(all(new PipedLines(new StringReader("only\n")))).containsExactly("only");
    }

    @Test
    void a_line_over_the_limit_is_refused_with_its_length_and_the_next_line_still_comes() throws IOException {
        String big = "x".repeat(200_000);   // spans several reads of the 64 Ki buffer
        assertThat(all(new PipedLines(new StringReader("a\n" + big + "\nb\n"), 100_000)))
                .containsExactly("a", "refused 200000", "b");
        assertThat(all(new PipedLines(new StringReader(big), 200_000))).containsExactly(big);
    }

    @Test
    void a_reader_that_gives_a_few_characters_at_a_time_loses_none() throws IOException {
        Reader trickle = new Reader() {
            final StringReader inner = new StringReader("héllo wörld\nsecond\n");
            @Override public int read(char[] b, int off, int len) throws IOException {
                return inner.read(b, off, Math.min(len, 3));
            }
            @Override public void close() { }
        };
        assertThat(all(new PipedLines(trickle))).containsExactly("héllo wörld", "second");
    }
}
