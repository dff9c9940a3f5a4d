package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.Launch;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeOpenAiServer;
import dev.hmpagent.testing.McpReferenceServers;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * MCP servers we did not write ({@code @modelcontextprotocol/server-everything} and {@code server-filesystem} from
 * npm, over stdio), started by a real headless agent whose scripted model calls their tools in a {@code # Commands:}
 * block: the results land in process_log, under the [mcp] rules.
 */
@Timeout(120)
class McpEndToEndTest {
    @TempDir Path dir;
    FakeOpenAiServer llm;
    Path db;
    Path config;

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

    private void configure(String mcp) throws Exception {
        Path everything = McpReferenceServers.everything();
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n" + mcp + "\n[[mcp.servers]]\nname = \"everything\"\n"
                + "command = \"" + McpReferenceServers.node() + "\"\nargs = [\"" + everything + "\", \"stdio\"]\n"
                + "timeout_s = 30\nread_only = [\"" + McpReferenceServers.folder() + "\"]\n");
    }

    record Run(int code, String out, String err) { }

    Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Launch launch = new Launch(Map.of("HOME", dir.toString()),
                () -> new DumbTerminal(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()),
                Clock.systemUTC(), false, dev.hmpagent.runtime.LlmChain::client, (name, handler) -> { });
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--config", config.toString(), "--db", db.toString(), "--base-url", llm.baseUrl()));
        return new Run(cl.execute(all.toArray(String[]::new)), out.toString(), err.toString());
    }

    String text(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
             ResultSet rs = c.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private static String call(String type, String args) {
        return "Calling the tool.\n# Commands:\n[{\"cmd_id\": \"c-1\", \"type\": \"" + type + "\", \"args\": " + args
                + "}]\n# End commands";
    }

    @Test
    void an_allowed_tool_call_lands_in_process_log_and_its_result_wakes_the_llm() throws Exception {
        configure("[mcp]\nallow = [\"everything\"]");
        cli("note", "echo something");
        llm.streamed(call("mcp.everything.echo", "{\"message\": \"hello from hmp\"}"), 10, 5)
                .streamed("Done.", 10, 1);

        Run run = cli("run", "--hz", "20", "--until-idle");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(text("SELECT status || ' ' || result FROM process_log WHERE name = 'mcp.everything.echo'"))
                .isEqualTo("ok Echo: hello from hmp");
        llm.take();
        FakeOpenAiServer.Received second = llm.take();
        assertThat(second.user()).as("the result woke the LLM and is in context 2").contains("Echo: hello from hmp");
        assertThat(second.system()).as("context 0 lists the server's tools with their arguments")
                .contains("mcp.everything.echo(message: string) — Echoes back the input string");
        assertThat(llm.requestCount()).isEqualTo(2);
    }

    @Test
    void in_tools_mode_the_model_is_offered_the_tool_with_its_own_schema_and_its_call_runs() throws Exception {
        configure("[mcp]\nallow = [\"everything\"]");
        Files.writeString(config, Files.readString(config).replace("model = \"test-model\"\n",
                "model = \"test-model\"\ncommands = \"tools\"\n"));
        cli("note", "echo something");
        llm.streamedToolCalls("Calling.", new dev.hmpagent.llm.ToolCall("call_1", "mcp__everything__echo",
                "{\"message\": \"by tool call\"}")).streamed("Done.", 10, 1);

        Run run = cli("run", "--hz", "20", "--until-idle");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(text("SELECT status || ' ' || result FROM process_log WHERE name = 'mcp.everything.echo'"))
                .isEqualTo("ok Echo: by tool call");
        llm.take();
        com.fasterxml.jackson.databind.JsonNode tools = llm.take().body().path("tools");
        com.fasterxml.jackson.databind.JsonNode echo = null;
        for (com.fasterxml.jackson.databind.JsonNode t : tools) {
            if (t.path("function").path("name").asText().equals("mcp__everything__echo")) echo = t.path("function");
        }
        assertThat(echo).as("offered once the server answered: " + tools).isNotNull();
        assertThat(echo.path("description").asText()).as("the server's words stay in context 0, fenced")
                .isEqualTo("tool echo of MCP server everything: what it does is listed in the system message, as the"
                        + " server's words");
        assertThat(echo.path("parameters").path("properties").path("message").path("description").asText())
                .as("the tool's own schema").isEqualTo("Message to echo");
    }

    @Test
    void the_filesystem_servers_tools_read_inside_its_folder_and_fail_outside_it() throws Exception {
        Path filesystem = McpReferenceServers.filesystem();
        Path shared = Files.createDirectories(dir.resolve("shared"));
        Files.writeString(shared.resolve("a.txt"), "hello file\n");
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n[mcp]\nallow = [\"files\"]\n"
                + "[[mcp.servers]]\nname = \"files\"\ncommand = \"" + McpReferenceServers.node() + "\"\n"
                + "args = [\"" + filesystem + "\", \"" + shared.toRealPath() + "\"]\n"
                + "read_only = [\"" + McpReferenceServers.folder() + "\"]\nread_write = [\"" + shared + "\"]\n");
        cli("note", "read the file");
        llm.streamed("Reading.\n# Commands:\n[{\"cmd_id\": \"c-1\", \"type\": \"mcp.files.read_text_file\", \"args\":"
                + " {\"path\": \"" + shared.toRealPath().resolve("a.txt") + "\"}}, {\"cmd_id\": \"c-2\", \"type\":"
                + " \"mcp.files.read_text_file\", \"args\": {\"path\": \"/etc/hostname\"}}]\n# End commands", 10, 5)
                .streamed("Read.", 10, 1).streamed("Read, both.", 10, 1);   // each result may wake it

        Run run = cli("run", "--hz", "20", "--until-idle");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(text("SELECT status || ' ' || result FROM process_log WHERE cmd_id = 'c-1'"))
                .isEqualTo("ok hello file\n");
        assertThat(text("SELECT status || ' ' || result FROM process_log WHERE cmd_id = 'c-2'"))
                .as("the server's isError is a failure").startsWith("error ").contains("/etc/hostname");
        llm.take();
        assertThat(llm.take().system()).contains("mcp.files.read_text_file(path: string, tail?: number, head?: number)");
    }

    @Test
    void headless_a_tool_named_nowhere_is_asked_of_nobody_and_refused() throws Exception {
        configure("");
        cli("note", "echo something");
        llm.streamed(call("mcp.everything.echo", "{\"message\": \"x\"}"), 10, 5).streamed("Refused, then.", 10, 1);

        // (not --until-idle, whose drain withdraws every question at once and leaves the command pending)
        Run run = cli("run", "--hz", "20", "--max-ticks", "20");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(text("SELECT status || ' ' || result FROM process_log WHERE name = 'mcp.everything.echo'"))
                .startsWith("error ").contains("EPERM: mcp.everything.echo not approved: nobody is at a terminal",
                        "neither everything.echo nor everything is in [mcp] allow");
    }

    @Test
    void a_denied_tool_is_refused_while_its_server_is_allowed() throws Exception {
        configure("[mcp]\nallow = [\"everything\"]\ndeny = [\"everything.echo\"]");
        cli("note", "echo something");
        llm.streamed(call("mcp.everything.echo", "{\"message\": \"x\"}"), 10, 5).streamed("Denied.", 10, 1);

        Run run = cli("run", "--hz", "20", "--until-idle");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(text("SELECT status || ' ' || result FROM process_log WHERE name = 'mcp.everything.echo'"))
                .startsWith("error ").contains("EPERM: mcp.everything.echo refused: the tool is in [mcp] deny");
    }

    @Test
    void a_tool_error_is_a_failure_row() throws Exception {
        configure("[mcp]\nallow = [\"everything\"]");
        cli("note", "add");
        llm.streamed(call("mcp.everything.get-sum", "{\"a\": \"not a number\"}"), 10, 5).streamed("Hm.", 10, 1);

        Run run = cli("run", "--hz", "20", "--until-idle");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(text("SELECT status FROM process_log WHERE name = 'mcp.everything.get-sum'")).isEqualTo("error");
    }

    @Test
    void a_server_killed_mid_call_is_one_line_and_the_call_a_failure_row() throws Exception {
        configure("[mcp]\nallow = [\"everything\"]");
        cli("note", "run something long");
        // the echo's result says the server is up; then the long call, during which the server is killed
        llm.streamed(call("mcp.everything.echo", "{\"message\": \"up?\"}"), 10, 5)
                .streamed(call("mcp.everything.trigger-long-running-operation", "{\"duration\": 20, \"steps\": 4}"),
                        10, 5)
                .streamed("It failed.", 10, 1);

        java.util.Set<Long> earlier = servers().map(ProcessHandle::pid).collect(java.util.stream.Collectors.toSet());
        CompletableFuture<Run> running = CompletableFuture.supplyAsync(() -> cli("run", "--hz", "20", "--until-idle"));
        ProcessHandle server = awaitServerInFlight(earlier);
        server.destroyForcibly();
        Run run = running.get();

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(text("SELECT status FROM process_log WHERE name = 'mcp.everything.echo'")).isEqualTo("ok");
        assertThat(text("SELECT status || ' ' || error_code || ' ' || result FROM process_log"
                + " WHERE name = 'mcp.everything.trigger-long-running-operation'"))
                .startsWith("error EOFFLINE ").contains("EOFFLINE: mcp server everything exited during the call");
        assertThat(run.out().lines().filter(l -> l.contains("MCP server everything exited")).count())
                .as("one line to the person: " + run.out() + run.err()).isEqualTo(1);
    }

    @Test
    void a_halt_ends_the_call_in_flight_and_kills_the_servers_process() throws Exception {
        configure("[mcp]\nallow = [\"everything\"]");
        cli("note", "run something long");
        llm.streamed(call("mcp.everything.echo", "{\"message\": \"up?\"}"), 10, 5)
                .streamed(call("mcp.everything.trigger-long-running-operation", "{\"duration\": 30, \"steps\": 3}"),
                        10, 5);

        long started = System.currentTimeMillis();
        java.util.Set<Long> earlier = servers().map(ProcessHandle::pid).collect(java.util.stream.Collectors.toSet());
        CompletableFuture<Run> running = CompletableFuture.supplyAsync(() -> cli("run", "--hz", "20",
                "--exit-on-lockout"));
        ProcessHandle server = awaitServerInFlight(earlier);
        assertThat(cli("halt", "--reason", "enough").code()).isZero();
        Run run = running.get();

        assertThat(run.code()).as(run.out() + run.err()).isEqualTo(7);
        assertThat(System.currentTimeMillis() - started).as("the 30 s call did not run out").isLessThan(25_000);
        assertThat(text("SELECT status || ' ' || error_code FROM process_log"
                + " WHERE name = 'mcp.everything.trigger-long-running-operation'")).isEqualTo("error EHALT");
        assertThat(server.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS).isAlive()).isFalse();
    }

    /** The everything servers this JVM runs now (an earlier test's may still be on its way out). */
    private static java.util.stream.Stream<ProcessHandle> servers() {
        return ProcessHandle.current().children().filter(p -> p.info().arguments()
                .map(a -> String.join(" ", a).contains("server-everything")).orElse(false));
    }

    /**
     * This run's server process (none of the {@code earlier} ones: killing an earlier test's server, still stopping,
     * left this run's long call to finish, once in a full suite), once the long call's row is running.
     */
    private ProcessHandle awaitServerInFlight(java.util.Set<Long> earlier) throws Exception {
        long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline) {
            String status = text("SELECT status FROM process_log WHERE name = 'mcp.everything.trigger-long-running-operation'");
            Optional<ProcessHandle> server = servers().filter(p -> !earlier.contains(p.pid())).findFirst();
            if ("running".equals(status) && server.isPresent()) {
                Thread.sleep(500);   // the request is on its way to the server
                return server.get();
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the long call never ran");
    }
}
