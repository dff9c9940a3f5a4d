package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.AgentProgram;
import dev.hmpagent.testing.FakeOpenAiServer;
import dev.hmpagent.testing.SlowOpenAiServer;
import dev.hmpagent.testing.TmuxPane;
import dev.hmpagent.testing.TmuxPane.Screen;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The screen a person meets at 60, 120 and 200 columns, in a real pseudo-terminal: the outage's one line, words
 * wrapped between words under "agent> ", the command block shown as what it will do, the status line on one row.
 */
@Timeout(90)
class ScreenAtWidthsEndToEndTest {
    static final String ANSWER = "Here is a long answer whose words must never be cut in the middle when the terminal"
            + " is narrow, whatever width it happens to have today.";

    @TempDir Path dir;
    TmuxPane pane;
    SlowOpenAiServer llm;

    @AfterEach
    void stop() throws Exception {
        if (pane != null) pane.close();
        if (llm != null) llm.close();
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

    @ParameterizedTest(name = "{0} columns")
    @ValueSource(ints = {60, 120, 200})
    void a_rate_limit_is_one_line_with_the_servers_wait(int columns) throws Exception {
        try (FakeOpenAiServer limited = new FakeOpenAiServer()) {
            limited.script(r -> FakeOpenAiServer.statusResponse(429, "{\"error\": {\"message\": \"slow down\"}}",
                    "Retry-After", "30"));
            open(limited.baseUrl(), columns);

            pane.type("hello?").press("Enter");

            Screen s = pane.await("the rate limit line: try, next in (the server's 30 s) and the fix on one row",
                    x -> x.rows().stream().anyMatch(r -> r.matches(".*rate limited.* · try 1 · next in (30|2\\d) s.*/model.*")));
            assertThat(s.text()).doesNotContain("will retry later");
        }
    }

    @ParameterizedTest(name = "{0} columns")
    @ValueSource(ints = {60, 120, 200})
    void words_wrap_between_words_the_commands_stream_as_summaries_and_the_status_line_is_one_row(int columns)
            throws Exception {
        llm = new SlowOpenAiServer();
        open(llm.baseUrl(), columns);
        SlowOpenAiServer.Reply reply = llm.nextReply();
        pane.type("please answer at length").press("Enter");
        reply.awaitRequest();

        reply.send("I answer at length.\n\n# Commands:\n```json\n[{\"cmd_id\": \"c-1\", \"type\": \"send_message\","
                + " \"args\": {\"text\": \"Here is a long");
        Screen streaming = pane.await("the command shown as what it does, not as JSON",
                x -> x.contains("▸ send_message: Here is a long"));
        assertThat(streaming.text()).doesNotContain("cmd_id").doesNotContain("```");
        String status = streaming.above().get(streaming.above().size() - 1);
        assertThat(status).as("the status line, whole on the row above the prompt").startsWith("ACTIVE · ")
                .endsWith(" · m");

        reply.finish(ANSWER.substring("Here is a long".length()) + "\"}, \"description\": \"answer\"}]\n```\n"
                + "# End commands\n");
        Screen done = pane.await("the answer", x -> x.textAbove().contains("agent> Here is a long answer"));
        List<String> rows = done.rows().stream().dropWhile(r -> !r.startsWith("agent> Here is")).toList();
        List<String> shown = rows.stream().takeWhile(r -> r.startsWith("agent> ") || r.startsWith("       ")).toList();
        assertThat(String.join(" ", shown.stream().map(String::strip).toList()).replace("agent> ", ""))
                .as("every word whole, in order, the rows under the text:\n" + done).isEqualTo(ANSWER);
        assertThat(shown).hasSize(columns == 60 ? 3 : columns == 120 ? 2 : 1);
    }
}
