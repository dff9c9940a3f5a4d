package dev.hmpagent.repl;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TypedTextTest {
    @Test
    void arrow_keys_on_a_dumb_terminal_never_reach_the_llm() {
        assertThat(Printable.text("\u001b[Ahello\u001b[D\u001b[C")).isEqualTo("hello");
        assertThat(Printable.text("\u001bOAhi")).isEqualTo("hi");
        assertThat(Printable.text("a\u001b]0;title\u0007b")).isEqualTo("ab");
        assertThat(Printable.text("x\u0003y\u007f")).isEqualTo("xy");
    }

    @Test
    void newlines_tabs_and_ordinary_text_stay() {
        assertThat(Printable.text("line one\n\tline two ! \\ ^[[A")).isEqualTo("line one\n\tline two ! \\ ^[[A");
    }
}
