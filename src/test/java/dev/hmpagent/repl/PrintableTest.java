package dev.hmpagent.repl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PrintableTest {
    @Test
    void escape_sequences_go_whole_not_just_their_escape_character() {
        assertThat(Printable.text("\u001b[1;31mred\u001b[0m")).isEqualTo("red");
        assertThat(Printable.text("a\u001b]52;c;Y3VybCBldmlsLnNo\u0007b")).as("a clipboard write").isEqualTo("ab");
        assertThat(Printable.text("a\u001b]0;title\u001b\\b")).as("a title ended by ST").isEqualTo("ab");
        assertThat(Printable.text("a\u009b31mb")).as("the 8-bit CSI").isEqualTo("ab");
        assertThat(Printable.text("a\u001b(Bb\u001bc")).isEqualTo("ab");
        assertThat(Printable.text("bell\u0007 nul\u0000 del\u007f")).isEqualTo("bell nul del");
    }

    @Test
    void newlines_and_tabs_stay_in_text_and_go_on_one_line() {
        assertThat(Printable.text("one\r\ntwo\tthree")).isEqualTo("one\ntwo\tthree");
        assertThat(Printable.oneLine("  one\n\n two\tthree  ", 80)).isEqualTo("one two three");
        assertThat(Printable.text(null)).isEmpty();
    }

    @Test
    void one_line_is_cut_with_an_ellipsis_never_inside_a_surrogate_pair() {
        assertThat(Printable.oneLine("abcdefghij", 10)).isEqualTo("abcdefghij");
        assertThat(Printable.oneLine("abcdefghijk", 10)).isEqualTo("abcdefghi…").hasSize(10);
        assertThat(Printable.oneLine("abcdefgh\uD83D\uDE00xyz", 10)).isEqualTo("abcdefgh…");
        assertThatThrownBy(() -> Printable.oneLine("x", 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
