package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jline.terminal.Terminal;
import org.jline.terminal.impl.DumbTerminal;
import org.jline.terminal.impl.ExternalTerminal;
import org.junit.jupiter.api.Test;

/** The system terminal comes from JLine's native providers; its exec provider is asked only when they fail. */
class LaunchTest {
    private final List<String> made = new ArrayList<>();

    @Test
    void a_real_terminal_from_the_native_providers_is_used_without_asking_the_others() throws IOException {
        try (Terminal t = Launch.nativeFirst(() -> make("native", real()), () -> make("any", real()), true, "xterm")) {
            assertThat(t).isNotInstanceOf(DumbTerminal.class);
            assertThat(made).containsExactly("native");
        }
    }

    @Test
    void a_dumb_one_for_a_person_at_a_terminal_means_the_native_providers_failed_so_the_others_are_asked() throws IOException {
        Terminal dumb = dumb();
        try (Terminal t = Launch.nativeFirst(() -> make("native", dumb), () -> make("any", real()), true, "xterm")) {
            assertThat(t).isNotInstanceOf(DumbTerminal.class);
            assertThat(made).containsExactly("native", "any");
        }
    }

    @Test
    void a_dumb_one_is_right_for_a_pipe_or_for_term_dumb() throws IOException {
        try (Terminal t = Launch.nativeFirst(() -> make("native", dumb()), () -> make("any", real()), false, "xterm")) {
            assertThat(t).isInstanceOf(DumbTerminal.class);
        }
        try (Terminal t = Launch.nativeFirst(() -> make("native", dumb()), () -> make("any", real()), true, "dumb")) {
            assertThat(t).isInstanceOf(DumbTerminal.class);
        }
        assertThat(made).containsExactly("native", "native");
    }

    private Terminal make(String by, Terminal terminal) {
        made.add(by);
        return terminal;
    }

    private static Terminal dumb() throws IOException {
        return new DumbTerminal(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream());
    }

    private static Terminal real() throws IOException {
        return new ExternalTerminal("test", "xterm", new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream(),
                StandardCharsets.UTF_8);
    }
}
