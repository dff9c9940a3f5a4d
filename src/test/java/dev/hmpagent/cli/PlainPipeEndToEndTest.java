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

    /** What the real program did with {@code input} piped in: its exit code, stdout and stderr, apart. */
    record Piped(int code, String out, String err) {
        String all() {
            return out + err;
        }
    }

    Piped pipe(String input, String... extra) throws Exception {
        AgentProgram agent = AgentProgram.in(dir, llm.baseUrl());
        Path stdout = dir.resolve("stdout");
        Path stderr = dir.resolve("stderr");
        java.util.List<String> argv = new java.util.ArrayList<>(agent.argv());
        argv.addAll(java.util.List.of(extra));
        ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile())
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
        pb.environment().clear();
        pb.environment().putAll(agent.env("xterm-256color"));   // a colour terminal's shell, piping into the agent
        Process p = pb.start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(input.getBytes(StandardCharsets.UTF_8));
        }
        boolean exited = p.waitFor(60, TimeUnit.SECONDS);
        if (!exited) p.destroyForcibly().waitFor();
        Piped run = new Piped(exited ? p.exitValue() : -1, Files.readString(stdout, StandardCharsets.UTF_8),
                Files.readString(stderr, StandardCharsets.UTF_8));
        assertThat(exited).as("exited within 60 s; output:\n" + run.all()).isTrue();
        return run;
    }

    @Test
    void piped_input_gets_clean_uncoloured_output_without_a_banner_and_exit_code_0() throws Exception {
        SlowOpenAiServer.Reply reply = llm.answer(AgentInTerminalEndToEndTest.reply("A greeting.", "Hello, pipe!"));

        Piped run = pipe("hello\n/quit\n");

        String all = run.all();
        assertThat(run.code()).as("exit code; output:\n" + all).isZero();
        assertThat(reply.awaitRequest().toString()).contains("hello");
        // a script reads the answer alone on stdout; the figures line goes to stderr
        assertThat(run.out()).isEqualTo("Hello, pipe!\n");
        assertThat(run.err()).contains(" in · ").contains(" out · ");
        assertThat(all.indexOf('\u001b')).as("no ESC byte anywhere in the output:\n" + all.replace("\u001b", "<ESC>"))
                .isEqualTo(-1);
        assertThat(all.lines()).as("no banner line").noneMatch(line -> line.startsWith("hmp-agent:"));
    }

    @Test
    void a_reply_with_nothing_to_show_exits_8_with_one_line_on_stderr_and_nothing_on_stdout() throws Exception {
        llm.answer("");

        Piped run = pipe("hello\n", "-q");

        assertThat(run.code()).as("exit code; output:\n" + run.all()).isEqualTo(8);
        assertThat(run.out()).isEmpty();
        // (ArchUnit brings slf4j-api onto the test classpath, which warns once; the shipped program has no SLF4J)
        assertThat(run.err().lines().filter(l -> !l.startsWith("SLF4J("))).singleElement().asString().startsWith("! no answer to your message: the model"
                + " answered (tick 1) but its reply was empty");
    }
}
