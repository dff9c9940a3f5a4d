package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.AgentProgram;
import dev.hmpagent.testing.TmuxPane;
import dev.hmpagent.testing.TmuxPane.Screen;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The screen a person meets at 60, 120 and 200 columns, in a real pseudo-terminal: the outage's one line. */
@Timeout(90)
class ScreenAtWidthsEndToEndTest {
    @TempDir Path dir;
    TmuxPane pane;

    @AfterEach
    void stop() throws Exception {
        if (pane != null) pane.close();
    }

    Screen open(String baseUrl, int columns) throws Exception {
        AgentProgram agent = AgentProgram.in(dir, baseUrl);
        pane = TmuxPane.start(dir, agent.env("screen-256color"), agent.argv(), columns);
        return pane.await("the prompt", AgentInTerminalEndToEndTest::atPrompt);
    }

    /** Rows as tmux shows them are never wider than the pane; a row that was cut by the terminal is the tell. */
    static boolean oneRow(Screen s, String... parts) {
        return s.rows().stream().anyMatch(r -> Arrays.stream(parts).allMatch(r::contains));
    }

    @ParameterizedTest(name = "{0} columns")
    @ValueSource(ints = {60, 120, 200})
    void with_no_llm_at_the_address_one_line_says_the_try_the_wait_and_the_fix(int columns) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();   // closed again: nothing listens there, the connection is refused
        }
        open("http://127.0.0.1:" + port + "/v1", columns);

        pane.type("hello, is anyone there?").press("Enter");

        Screen s = pane.await("the outage line: try, next in and the fix on one row",
                x -> oneRow(x, "no LLM", "try ", "next in ", "llm.base_url"));
        assertThat(s.text()).doesNotContain("No LLM answers").doesNotContain("The agent goes on without thinking");
        if (columns >= 120) assertThat(s.text()).contains("(connection refused)");
    }
}
