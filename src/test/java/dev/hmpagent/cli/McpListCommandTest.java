package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.Launch;
import dev.hmpagent.testing.McpReferenceServers;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code agent mcp list}, driven directly (the {@code agent mcp} group adds it as its {@code list}). */
@Timeout(120)
class McpListCommandTest {
    @TempDir Path dir;

    private record Run(int code, String out) { }

    private Run list(Path config, String... more) {
        Launch launch = new Launch(Map.of("HOME", dir.toString()),
                () -> new DumbTerminal(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()),
                Clock.systemUTC(), false, dev.hmpagent.runtime.LlmChain::client, (name, handler) -> { });
        AgentCommand root = new AgentCommand(launch);
        CommandLine cl = new CommandLine(root).addSubcommand("list", new McpListCommand(root, launch));
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(out, true));
        String[] args = java.util.stream.Stream.concat(java.util.stream.Stream.of("list", "--config", config.toString()),
                java.util.stream.Stream.of(more)).toArray(String[]::new);
        return new Run(cl.execute(args), out.toString());
    }

    @Test
    void lists_each_server_its_state_and_its_tools_as_the_llm_sees_them_then_stops_it() throws Exception {
        Path everything = McpReferenceServers.everything();
        Path config = Files.writeString(dir.resolve("agent.toml"), "[[mcp.servers]]\nname = \"everything\"\n"
                + "command = \"" + McpReferenceServers.node() + "\"\nargs = [\"" + everything + "\", \"stdio\"]\n"
                + "read_only = [\"" + McpReferenceServers.folder() + "\"]\n"
                + "[[mcp.servers]]\nname = \"ghost\"\ncommand = \"/nonexistent/server\"\n");

        Run run = list(config);

        assertThat(run.code()).as(run.out()).isEqualTo(3);
        assertThat(run.out()).containsPattern("everything \\(stdio, (sandboxed, network off|unconfined: no sandbox here): ")
                .contains(McpReferenceServers.node() + " " + everything
                        + " stdio): ready, ",
                "\n  mcp.everything.echo(message: string) — Echoes back the input string\n",
                "): failed — did not start: /nonexistent/server is not an executable file\n")
                .endsWith("agent mcp list: 1 of 2 MCP servers did not answer with their tools: ghost (failed); each"
                        + " one's line above says why\n");
        assertThat(ProcessHandle.current().children().filter(p -> p.info().arguments()
                .map(a -> String.join(" ", a).contains(everything.toString())).orElse(false)).count())
                .as("the server's process is gone").isZero();
    }

    @Test
    void without_servers_it_says_how_to_add_one() throws Exception {
        Run run = list(Files.writeString(dir.resolve("agent.toml"), ""));

        assertThat(run.code()).isZero();
        assertThat(run.out()).isEqualTo("no MCP server is configured ([[mcp.servers]] in agent.toml)\n");
    }
}
