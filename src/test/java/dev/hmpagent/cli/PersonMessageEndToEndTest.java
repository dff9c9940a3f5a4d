package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.AgentProgram;
import dev.hmpagent.testing.SlowOpenAiServer;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A person's message longer than the prompt holds: the real program, its input piped, a prompt budget set low. The
 * model is told how to read the rest, and the person is told, with the numbers, on the screen.
 */
@Timeout(90)
class PersonMessageEndToEndTest {
    @TempDir Path dir;
    SlowOpenAiServer llm;

    @BeforeEach
    void start() throws Exception {
        llm = new SlowOpenAiServer();
    }

    @AfterEach
    void stop() throws Exception {
        llm.close();
    }

    @Test
    void a_message_cut_to_fit_the_prompt_is_said_on_the_screen_and_the_model_is_told_how_to_read_the_rest()
            throws Exception {
        SlowOpenAiServer.Reply reply = llm.answer(AgentInTerminalEndToEndTest.reply("Reading.", "Got it."));
        AgentProgram agent = AgentProgram.in(dir, llm.baseUrl());
        Files.writeString(dir.resolve("agent.toml"), "[llm]\nmodel = \"m\"\n[context]\nprompt_budget_tokens = 4000\n");
        String paste = "0123456789".repeat(3_000);

        String all = run(agent, paste + "\n/quit\n");

        String request = reply.awaitRequest().toString();
        assertThat(request).contains("more chars of this message: read them with note_read").doesNotContain(paste);
        assertThat(all).contains("your message of 30,000 characters is more than the prompt holds at once")
                .contains("reads the other");
    }

    private String run(AgentProgram agent, String input) throws Exception {
        Path out = dir.resolve("out");
        List<String> argv = new ArrayList<>(agent.argv());
        ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile());
        pb.environment().clear();
        pb.environment().putAll(agent.env("dumb"));
        Process p = pb.start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(input.getBytes(StandardCharsets.UTF_8));
        }
        boolean exited = p.waitFor(60, TimeUnit.SECONDS);
        if (!exited) p.destroyForcibly().waitFor();
        String all = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(exited).as("exited within 60 s; output:\n" + all).isTrue();
        return all;
    }
}
