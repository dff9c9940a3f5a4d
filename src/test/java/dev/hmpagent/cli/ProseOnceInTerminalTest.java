package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.AgentProgram;
import dev.hmpagent.testing.SlowOpenAiServer;
import dev.hmpagent.testing.TmuxPane;
import dev.hmpagent.testing.TmuxPane.Screen;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * At {@code /verbose normal} a reply of prose alone (no command) is its answer: the real program in tmux at 100
 * columns prints it once, as {@code agent (thought)>}, not a second time as a dim {@code (thought)} line (issue 35).
 */
@Timeout(90)
class ProseOnceInTerminalTest {
    static final String ANSWER = "Four is the sum of two and two.";

    @TempDir Path dir;
    SlowOpenAiServer llm;
    TmuxPane pane;

    @AfterEach
    void stop() throws Exception {
        if (pane != null) pane.close();
        if (llm != null) llm.close();
    }

    @Test
    void a_reply_without_commands_is_printed_once_at_verbose_normal() throws Exception {
        llm = new SlowOpenAiServer();
        AgentProgram agent = AgentProgram.in(dir, llm.baseUrl());
        llm.answer(ANSWER);
        pane = TmuxPane.start(dir, agent.env("screen-256color"), agent.argv(), 100);
        pane.await("the prompt", AgentInTerminalEndToEndTest::atPrompt);
        pane.type("/verbose normal").press("Enter");
        pane.await("verbosity set", s -> s.textAbove().contains("normal"));

        pane.type("what is 2+2?").press("Enter");

        // the line of figures comes once the tick is done: every line about the reply is on screen by then
        Screen done = pane.await("the answer and the figures after it",
                s -> s.textAbove().contains(ANSWER) && s.above().stream().anyMatch(r -> r.contains(" in · ")));
        assertThat(done.above().stream().filter(r -> r.contains(ANSWER)))
                .as("the reply once, as the answer:%n%s", done).singleElement().asString()
                .startsWith("agent (thought)> ");
        assertThat(done.textAbove()).as("no thought line repeating it:%n%s", done).doesNotContain("(thought) " + ANSWER);
    }
}
