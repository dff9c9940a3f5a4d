package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.AgentProgram;
import dev.hmpagent.testing.SlowOpenAiServer;
import dev.hmpagent.testing.TmuxPane;
import dev.hmpagent.testing.TmuxPane.Screen;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A lockout in the REPL, as a person sees it in a real terminal at 60, 120 and 200 columns: said once, naming the
 * command as they would type it, and the status line's state no longer dim like ACTIVE.
 */
@Timeout(90)
class LockoutInTerminalEndToEndTest {
    @TempDir Path dir;
    SlowOpenAiServer llm;
    TmuxPane pane;

    @AfterEach
    void stop() throws Exception {
        if (pane != null) pane.close();
        if (llm != null) llm.close();
    }

    @ParameterizedTest
    @ValueSource(ints = {60, 120, 200})
    void a_lockout_is_said_once_with_the_command_as_typed_and_the_state_stands_out(int columns) throws Exception {
        llm = new SlowOpenAiServer();
        AgentProgram agent = AgentProgram.in(dir, llm.baseUrl());
        Files.writeString(dir.resolve("agent.toml"), "[llm]\nmodel = \"m\"\n[policy]\nshell_allow = [\"ls\"]\n"
                + "[shell]\nmax_processes = 8\n");
        String ls = "{\"type\": \"shell\", \"args\": {\"command\": \"ls /no/such/dir\"}}";
        llm.answer("Looking.\n# Commands:\n[" + String.join(", ", Collections.nCopies(5, ls)) + "]\n# End commands\n");
        llm.answer("Looking again.");
        pane = TmuxPane.start(dir, agent.env("screen-256color"), agent.argv(), columns);
        pane.await("the prompt", AgentInTerminalEndToEndTest::atPrompt);

        pane.type("look around").press("Enter");

        Screen locked = pane.await("the lockout and the state in the status line",
                s -> String.join("", s.rows()).replace(" ", "").contains("Nosuchfile") && s.rows().stream().anyMatch(r -> r.startsWith("SAFETY_LOCKOUT ")));
        // a long line wraps over rows (a space at a row's end is trimmed): read it as one, without spaces
        String joined = String.join("", locked.rows()).replace(" ", "");
        assertThat(joined).as("the command as typed, at %d columns:%n%s", columns, locked)
                .contains("thecommand:ls/no/such/dir;").doesNotContain("{\"type\":\"shell\"");
        assertThat(locked.rows().stream().filter(r -> r.contains("SAFETY_LOCKOUT")).count())
                .as("one line in the transcript and the status line, at %d columns:%n%s", columns, locked).isEqualTo(2);
        assertThat(locked.isDim("SAFETY_LOCKOUT ·")).as("the state stands out, not dim like ACTIVE:%n%s", locked)
                .isFalse();
    }
}
