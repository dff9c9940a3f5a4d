package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.AgentProgram;
import dev.hmpagent.testing.SlowOpenAiServer;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code printf 'hello\n/quit\n' | agent}: the real program with its input from a pipe, as a script would run it. */
@Timeout(90)
class PlainPipeEndToEndTest {
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
    void piped_input_gets_clean_uncoloured_output_without_a_banner_and_exit_code_0() throws Exception {
        AgentProgram agent = AgentProgram.in(dir, llm.baseUrl());
        SlowOpenAiServer.Reply reply = llm.answer(AgentInTerminalEndToEndTest.reply("A greeting.", "Hello, pipe!"));
        Path stdout = dir.resolve("stdout");
        Path stderr = dir.resolve("stderr");
        ProcessBuilder pb = new ProcessBuilder(agent.argv()).directory(dir.toFile())
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
        pb.environment().clear();
        pb.environment().putAll(agent.env("xterm-256color"));   // a colour terminal's shell, piping into the agent
        Process p = pb.start();
        try (OutputStream in = p.getOutputStream()) {
            in.write("hello\n/quit\n".getBytes(StandardCharsets.UTF_8));
        }

        boolean exited = p.waitFor(60, TimeUnit.SECONDS);
        if (!exited) p.destroyForcibly().waitFor();
        byte[] outBytes = Files.readAllBytes(stdout);
        byte[] errBytes = Files.readAllBytes(stderr);
        String out = new String(outBytes, StandardCharsets.UTF_8);
        String all = out + new String(errBytes, StandardCharsets.UTF_8);
        assertThat(exited).as("exited within 60 s; output:\n" + all).isTrue();
        assertThat(p.exitValue()).as("exit code; output:\n" + all).isZero();
        assertThat(reply.awaitRequest().toString()).contains("hello");
        // a script reads the answer alone on stdout; the figures line goes to stderr
        assertThat(out).isEqualTo("agent> Hello, pipe!\n");
        assertThat(new String(errBytes, StandardCharsets.UTF_8)).contains(" in · ").contains(" out · ");
        assertThat(all.indexOf('\u001b')).as("no ESC byte anywhere in the output:\n" + all.replace("\u001b", "<ESC>"))
                .isEqualTo(-1);
        assertThat(all.lines()).as("no banner line").noneMatch(line -> line.startsWith("hmp-agent:"));
    }
}
