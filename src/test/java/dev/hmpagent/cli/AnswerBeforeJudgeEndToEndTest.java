package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.AgentProgram;
import dev.hmpagent.testing.SlowOpenAiServer;
import dev.hmpagent.testing.TmuxPane;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 35, item 1, in the real program at a terminal: the answer is on screen before step 5's comparison call is
 * even made (it was shown 16 s late, after the judge's call), and the comparison held open at the server does not
 * hide it.
 */
class AnswerBeforeJudgeEndToEndTest {
    @TempDir Path dir;
    SlowOpenAiServer llm;
    TmuxPane pane;

    @BeforeEach
    void start() throws Exception {
        llm = new SlowOpenAiServer();
    }

    @AfterEach
    void stop() throws Exception {
        llm.releaseJudgements();
        if (pane != null) pane.close();
        llm.close();
    }

    @Test
    void the_answer_is_on_screen_while_the_comparison_call_is_still_waiting_for_the_server() throws Exception {
        AgentProgram agent = AgentProgram.in(dir, llm.baseUrl());
        // every pair of replies is put to the model, and /verbose normal as the issue saw it
        Files.writeString(dir.resolve("agent.toml"), "[llm]\nmodel = \"m\"\n[stagnation]\nmethod = \"llm\"\n");
        llm.holdJudgements();
        pane = TmuxPane.start(dir, agent.env("screen-256color"), agent.argv());
        pane.await("the prompt", AgentInTerminalEndToEndTest::atPrompt);
        pane.type("/verbose normal").press("Enter");

        llm.answer("The first answer is forty-two.");
        pane.type("first question").press("Enter");
        pane.await("the first answer", s -> s.textAbove().contains("The first answer is forty-two."));
        llm.answer("The second answer is a rather different thing: seven boats on the lake.");
        pane.type("second question").press("Enter");

        llm.awaitJudgement();
        // the comparison of the second reply with the first is held at the server: the answer must be there already
        pane.await("the second answer while the judge waits",
                s -> s.textAbove().contains("seven boats on the lake."));
        llm.releaseJudgements();
        pane.await("the prompt again", AgentInTerminalEndToEndTest::atPrompt);
        pane.type("/quit").press("Enter");
        assertThat(pane.awaitExit()).isZero();
    }
}
