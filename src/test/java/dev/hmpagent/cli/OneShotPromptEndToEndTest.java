package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.AgentProgram;
import dev.hmpagent.testing.SlowOpenAiServer;
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
 * {@code agent -p 'what is 2+2?'}: ask once and exit, as {@code claude -p}, {@code gemini -p} and {@code llm} do; the
 * real program, nothing on its stdin.
 */
@Timeout(90)
class OneShotPromptEndToEndTest {
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

    record Ran(int code, String out, String err) { }

    Ran agent(String... extra) throws Exception {
        AgentProgram agent = AgentProgram.in(dir, llm.baseUrl());
        List<String> argv = new ArrayList<>(agent.argv());
        argv.addAll(List.of(extra));
        Path out = dir.resolve("out");
        Path err = dir.resolve("err");
        ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().clear();
        pb.environment().putAll(agent.env("xterm-256color"));
        Process p = pb.start();
        boolean exited = p.waitFor(60, TimeUnit.SECONDS);
        if (!exited) p.destroyForcibly().waitFor();
        Ran ran = new Ran(exited ? p.exitValue() : -1, Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
        assertThat(exited).as("exited within 60 s; stderr:\n" + ran.err()).isTrue();
        return ran;
    }

    @Test
    void a_prompt_on_the_command_line_is_asked_once_the_bare_answer_on_stdout_then_exit_0() throws Exception {
        SlowOpenAiServer.Reply reply = llm.answer(AgentInTerminalEndToEndTest.reply("Adding.", "4"));

        Ran ran = agent("-q", "-p", "what is 2+2?");

        assertThat(ran.code()).as(ran.err()).isZero();
        assertThat(reply.awaitRequest().toString()).contains("what is 2+2?");
        assertThat(ran.out()).isEqualTo("4\n");
        assertThat(ran.err()).isEmpty();
    }

    @Test
    void a_prompt_of_several_lines_is_one_message() throws Exception {
        SlowOpenAiServer.Reply reply = llm.answer(AgentInTerminalEndToEndTest.reply("Read it.", "two lines"));

        Ran ran = agent("--prompt", "first line\nsecond line");

        assertThat(ran.code()).as(ran.err()).isZero();
        String request = reply.awaitRequest().toString();
        assertThat(request).contains("first line\\nsecond line");
        assertThat(ran.out()).isEqualTo("two lines\n");
    }

    @Test
    void an_empty_prompt_is_refused_with_what_to_type() throws Exception {
        Ran ran = agent("-p", " ");
        assertThat(ran.code()).isEqualTo(2);
        assertThat(ran.err()).isEqualTo("agent: -p takes the message to send, e.g. agent -p 'what is 2+2?'; see agent"
                + " --help\n");
    }
}
