package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.Launch;
import dev.hmpagent.testing.FakeOpenAiServer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code echo … | agent} as a script uses it: answers (messages, a reply's marked prose) alone on stdout, everything
 * else on stderr, and an exit code that is never 0 with a message unanswered (6, 7, 8).
 */
@Timeout(60)
class PipeAnswersEndToEndTest {
    static final String PONG = AgentInTerminalEndToEndTest.reply("The person pings me.", "pong");

    @TempDir Path dir;
    FakeOpenAiServer llm;
    Path config;
    final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    final StringWriter stderr = new StringWriter();

    @BeforeEach
    void start() throws IOException {
        llm = new FakeOpenAiServer();
        config = dir.resolve("agent.toml");
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n");
    }

    @AfterEach
    void stop() {
        llm.close();
    }

    int agent(InputStream input, String... args) {
        Launch launch = new Launch(Map.of("HOME", dir.toString()), () -> new DumbTerminal(input, stdout),
                Clock.systemUTC(), false);
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(new StringWriter(), true));
        cl.setErr(new PrintWriter(stderr, true));
        List<String> all = new ArrayList<>(List.of(args));   // a subcommand first, as a person types it
        all.addAll(List.of("--config", config.toString(), "--db", dir.resolve("agent.db").toString()));
        if (all.stream().noneMatch(a -> a.equals("--base-url"))) all.addAll(List.of("--base-url", llm.baseUrl()));
        return cl.execute(all.toArray(String[]::new));
    }

    int agent(String input, String... args) {
        return agent(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), args);
    }

    String out() {
        return stdout.toString(StandardCharsets.UTF_8);
    }

    @Test
    void the_same_answer_to_a_second_ping_is_printed_again_on_stdout_with_the_figures_on_stderr() throws Exception {
        llm.streamed(PONG, 100, 10).streamed(PONG, 120, 10);
        PipedOutputStream typing = new PipedOutputStream();
        PipedInputStream input = new PipedInputStream(typing);
        CompletableFuture<Integer> code = CompletableFuture.supplyAsync(() -> agent(input));

        typing.write("ping\n".getBytes(StandardCharsets.UTF_8));
        typing.flush();
        assertThat(llm.take().user()).contains("ping");   // the first ping is asked about: the second comes after it
        typing.write("ping\n".getBytes(StandardCharsets.UTF_8));
        typing.close();

        assertThat(code.get()).as(stderr.toString()).isZero();
        assertThat(llm.requestCount()).isEqualTo(2);
        assertThat(out()).as("the bare answers").isEqualTo("pong\npong\n");
        assertThat(stderr.toString()).contains("100 in · 10 out").contains("120 in · 10 out")
                .doesNotContain("pong");
    }

    @Test
    void quiet_drops_the_figures_line_and_keeps_the_answer() {
        llm.streamed(PONG, 100, 10);

        assertThat(agent("ping\n", "-q")).as(stderr.toString()).isZero();

        assertThat(out()).isEqualTo("pong\n");
        assertThat(stderr.toString()).isEmpty();
    }

    @Test
    void a_shell_command_of_the_answer_runs_to_its_end_before_the_pipe_exits_and_its_result_is_answered() {
        // the process's result comes in a later tick: the drain at the end of input waited for nothing before
        llm.streamed("I look at the time.\n# Commands:\n[{\"type\": \"shell\", \"args\": {\"command\":"
                + " \"echo it is half past ten\"}}]", 100, 10);
        llm.streamed(AgentInTerminalEndToEndTest.reply("The shell said the time.", "it is half past ten"), 120, 10);

        assertThat(agent("what time is it?\n", "--quiet")).as(stderr.toString()).isZero();

        assertThat(llm.requestCount()).as("the result woke the model once more").isEqualTo(2);
        assertThat(out()).isEqualTo("it is half past ten\n");
        assertThat(stderr.toString()).as("quiet: problems alone, no dim line of what the tick did").isEmpty();
    }

    @Test
    void a_reply_without_a_message_prints_its_prose_bare_on_stdout_and_exits_0() {
        llm.streamed("2 + 2 = 4.", 100, 5);

        assertThat(agent("what is 2+2?\n", "--quiet")).as(stderr.toString()).isZero();

        assertThat(out()).isEqualTo("2 + 2 = 4.\n");
        assertThat(stderr.toString()).isEmpty();
    }

    @Test
    void a_reply_with_nothing_to_show_says_so_on_stderr_and_exits_8() {
        llm.streamed("", 100, 0);

        int code = agent("hello?\n", "-q");

        assertThat(code).isEqualTo(ExitCodes.NOTHING_SHOWN);
        assertThat(out()).isEmpty();
        assertThat(stderr.toString().lines()).containsExactly("! no answer to your message: the model answered (tick 1)"
                + " but its reply was empty, so there was nothing to show; send your message again, or try another model");
    }

    @Test
    void an_llm_that_stays_unreachable_says_so_on_stderr_and_exits_6() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }

        int code = agent("are you there?\n", "--base-url", "http://127.0.0.1:" + closedPort + "/v1",
                "--set", "llm.give_up_s=0");

        assertThat(code).isEqualTo(ExitCodes.LLM_UNAVAILABLE);
        assertThat(out()).isEmpty();
        assertThat(stderr.toString()).contains("giving up: the LLM stayed unreachable");
    }

    @Test
    void a_halted_agent_says_so_on_stderr_and_exits_7() {
        assertThat(agent("")).as("the file is made").isZero();
        assertThat(agent("", "halt")).as(stderr.toString()).isZero();
        stderr.getBuffer().setLength(0);

        int code = agent("hello\n");

        assertThat(code).isEqualTo(ExitCodes.STOPPED);
        assertThat(out()).isEmpty();
        assertThat(stderr.toString()).contains("STOPPED(halt)").contains("agent unlock");
        assertThat(llm.requestCount()).isZero();
    }

    @Test
    void json_prints_one_object_per_answer_with_its_model_tokens_cost_and_outcome_then_why_it_exited()
            throws Exception {
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n"
                + "prices = [{ model = \"test-model\", input = 2.0, cached_input = 0.5, output = 8.0 }]\n");
        llm.streamed("Two things.\n# Commands:\n[{\"type\": \"send_message\", \"args\": {\"text\": \"first\"}},"
                + " {\"type\": \"send_message\", \"args\": {\"text\": \"second\\nline\"}}]", 1000, 100, 400);

        assertThat(agent("two answers?\n", "--json")).as(stderr.toString()).isZero();

        List<JsonNode> lines = new ArrayList<>();
        for (String line : out().split("\n")) lines.add(new ObjectMapper().readTree(line));
        assertThat(lines).hasSize(3);
        JsonNode first = lines.get(0);
        assertThat(first.path("event").asText()).isEqualTo("answer");
        assertThat(first.path("text").asText()).isEqualTo("first");
        assertThat(first.path("tick").asLong()).isEqualTo(1);
        assertThat(first.path("model").asText()).isEqualTo("test-model");
        assertThat(first.path("prompt_tokens").asInt()).isEqualTo(1000);
        assertThat(first.path("cached_tokens").asInt()).isEqualTo(400);
        assertThat(first.path("completion_tokens").asInt()).isEqualTo(100);
        assertThat(first.path("cost_usd").asDouble()).isCloseTo((600 * 2.0 + 400 * 0.5 + 100 * 8.0) / 1e6,
                org.assertj.core.data.Offset.offset(1e-9));
        assertThat(first.path("outcome").asText()).isEqualTo("thought");
        assertThat(lines.get(1).path("text").asText()).isEqualTo("second\nline");
        assertThat(lines.get(1).path("prompt_tokens").asInt()).as("one call's tokens are counted once").isZero();
        JsonNode exit = lines.get(2);
        assertThat(exit.path("event").asText()).isEqualTo("exit");
        assertThat(exit.path("exit_code").asInt()).isZero();
        assertThat(exit.path("reason").asText()).isEqualTo("ok");
        assertThat(exit.path("safety_state").asText()).isEqualTo("ACTIVE");
    }

    @Test
    void json_of_a_halted_agent_ends_with_exit_7_and_its_state() throws Exception {
        assertThat(agent("")).as("the file is made").isZero();
        assertThat(agent("", "halt")).as(stderr.toString()).isZero();
        stdout.reset();

        int code = agent("hello\n", "--json");

        assertThat(code).isEqualTo(ExitCodes.STOPPED);
        JsonNode exit = new ObjectMapper().readTree(out().strip());
        assertThat(exit.path("exit_code").asInt()).isEqualTo(ExitCodes.STOPPED);
        assertThat(exit.path("reason").asText()).isEqualTo("stopped or locked");
        assertThat(exit.path("safety_state").asText()).isEqualTo("STOPPED(halt)");
        assertThat(llm.requestCount()).isZero();
    }
}
