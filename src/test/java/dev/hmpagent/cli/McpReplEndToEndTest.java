package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.Launch;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeMcpServer;
import dev.hmpagent.testing.FakeOpenAiServer;
import dev.hmpagent.testing.McpReferenceServers;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The REPL with MCP servers, driven in-process through a DumbTerminal whose input the test types as the scripted LLM
 * is reached: {@code /mcp} shows the running agent's servers; a server that answers garbage is one line to the
 * person and an unavailable family to the LLM, and the agent goes on thinking.
 */
@Timeout(90)
class McpReplEndToEndTest {
    @TempDir Path dir;
    FakeOpenAiServer llm;
    Path db;
    Path config;
    final Keyboard keyboard = new Keyboard();
    final ByteArrayOutputStream terminalOut = new ByteArrayOutputStream();
    final StringWriter err = new StringWriter();

    /** What the person types: lines the test adds while the agent runs, then the end of input. */
    static final class Keyboard extends InputStream {
        private final BlockingQueue<Integer> bytes = new LinkedBlockingQueue<>();

        void type(String line) {
            for (byte b : line.getBytes(StandardCharsets.UTF_8)) bytes.add(b & 0xff);
        }

        void end() {
            bytes.add(-1);
        }

        @Override
        public int read() throws java.io.IOException {
            try {
                int b = bytes.take();
                if (b < 0) bytes.add(-1);   // the end stays the end
                return b;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException();
            }
        }
    }

    @BeforeEach
    void start() throws Exception {
        llm = new FakeOpenAiServer();
        db = dir.resolve("agent.db");
        config = dir.resolve("agent.toml");
        Store.open(db, Clock.systemUTC()).close();
    }

    @AfterEach
    void stop() {
        llm.close();
    }

    int agent() {
        Launch launch = new Launch(Map.of("HOME", dir.toString()), () -> new DumbTerminal(keyboard, terminalOut),
                Clock.systemUTC(), false);
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(new StringWriter(), true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute("--config", config.toString(), "--db", db.toString(), "--base-url", llm.baseUrl());
    }

    String terminal() {
        return terminalOut.toString(StandardCharsets.UTF_8) + err;
    }

    String text(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
             ResultSet rs = c.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private void fakeServer() throws Exception {
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n[mcp]\nallow = [\"fake\"]\n[[mcp.servers]]\n"
                + "name = \"fake\"\ncommand = \"" + McpReferenceServers.node() + "\"\nargs = [\""
                + FakeMcpServer.script(dir) + "\"]\nsandbox = false\n");
    }

    /** The model: {@code first} to the first request; to the next, {@code then} is done and {@code second} said. */
    private void replies(String first, Runnable then, String second) {
        AtomicInteger n = new AtomicInteger();
        llm.script(request -> {
            if (n.incrementAndGet() == 1) return FakeOpenAiServer.streamedResponse(first, 10, 5, 0);
            if (n.get() == 2) then.run();
            return FakeOpenAiServer.streamedResponse(second, 10, 1, 0);
        });
    }

    private static String call(String type) {
        return "Calling the tool.\n# Commands:\n[{\"cmd_id\": \"c-1\", \"type\": \"" + type + "\", \"args\": {}}]\n"
                + "# End commands";
    }

    @Test
    void slash_mcp_shows_the_running_agents_servers_their_state_and_tools() throws Exception {
        fakeServer();
        // the echo's result proves the server ready: only then does the person type /mcp
        replies(call("mcp.fake.echo"), () -> {
            keyboard.type("/mcp\n");
            keyboard.end();
        }, "It answered.");
        keyboard.type("call the echo\n");

        assertThat(agent()).as(terminal()).isZero();

        assertThat(text("SELECT status || ' ' || result FROM process_log WHERE name = 'mcp.fake.echo'")).as(terminal())
                .isEqualTo("ok echo ran");
        assertThat(terminal()).contains("fake (stdio, unconfined: " + McpReferenceServers.node() + " "
                        + FakeMcpServer.script(dir) + "): ready, 4 tools\n")
                .contains("\n  mcp.fake.echo() — the echo tool\n")
                .contains("\n  mcp.fake.unlock_door() — the unlock_door tool  [not offered to the LLM: ");
        assertThat(llm.requestCount()).as("/mcp asks no LLM").isEqualTo(2);
    }

    @Test
    void a_tool_list_changed_during_a_task_is_shown_from_the_persons_next_message() throws Exception {
        fakeServer();
        AtomicInteger n = new AtomicInteger();
        llm.script(request -> {
            switch (n.incrementAndGet()) {
                case 1 -> {   // the echo's result says the server is ready: the next prompt lists its tools
                    return FakeOpenAiServer.streamedResponse(call("mcp.fake.echo"), 10, 5, 0);
                }
                case 2 -> {
                    return FakeOpenAiServer.streamedResponse(call("mcp.fake.add_tool"), 10, 5, 0);
                }
                case 3 -> {   // woken by the result, in the same task: the person writes again meanwhile
                    keyboard.type("now use it\n");
                    keyboard.end();
                    return FakeOpenAiServer.streamedResponse("Added.", 10, 1, 0);
                }
                default -> {
                    return FakeOpenAiServer.streamedResponse("Done.", 10, 1, 0);
                }
            }
        });
        keyboard.type("add a tool\n");

        assertThat(agent()).as(terminal()).isZero();

        assertThat(text("SELECT result FROM process_log WHERE name = 'mcp.fake.add_tool'")).isEqualTo("added extra");
        llm.take();
        assertThat(llm.take().system()).contains("- mcp.fake.add_tool()").doesNotContain("mcp.fake.extra");
        assertThat(llm.take().system()).as("the same task: the prompt's prefix holds").contains("- mcp.fake.add_tool()")
                .doesNotContain("mcp.fake.extra");
        assertThat(llm.take().system()).as("the person's next message starts a task")
                .contains("- mcp.fake.extra() — the extra tool");
        assertThat(terminal()).contains("MCP server fake: its tools changed (5 tools); the LLM is shown them from the"
                + " next task on");
    }

    @Test
    void a_server_that_answers_garbage_is_one_line_and_an_unavailable_family_and_the_agent_goes_on() throws Exception {
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n[mcp]\nallow = [\"junk\"]\n[[mcp.servers]]\n"
                + "name = \"junk\"\ncommand = \"/bin/sh\"\nargs = [\"-c\", \"echo not json; echo '{\\\"jsonrpc\\\": 7}';"
                + " sleep 5\"]\nsandbox = false\ntimeout_s = 10\n");
        replies(call("mcp.junk.anything"), keyboard::end, "The junk server is down; going on without it.");
        keyboard.type("use the junk server\n");

        assertThat(agent()).as(terminal()).isZero();

        assertThat(text("SELECT status || ' ' || result FROM process_log WHERE name = 'mcp.junk.anything'"))
                .as("the call waited for the start, which failed").startsWith("error ")
                .contains("EOFFLINE: mcp server junk did not start");
        llm.take();
        assertThat(llm.take().system()).as("the family is unavailable in context 0")
                .contains("mcp server junk: unavailable (");
        assertThat(terminal().lines().filter(l -> l.contains("MCP server junk")))
                .as("one line to the person: " + terminal()).hasSize(1)
                .allSatisfy(l -> assertThat(l).contains("its tools (mcp.junk.*) are unavailable; restarting it"));
        assertThat(terminal()).contains("The junk server is down; going on without it.")
                .doesNotContain("Exception").doesNotContain("\tat ");
    }
}
