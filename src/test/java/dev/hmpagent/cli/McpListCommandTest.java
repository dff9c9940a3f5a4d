package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.Launch;
import dev.hmpagent.testing.Bwrap;
import dev.hmpagent.testing.McpReferenceServers;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
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

    /**
     * An {@code npx} that behaves as npm's does without the internet: told to work offline it finds nothing cached,
     * without a network interface the registry's name does not resolve, and with one it "fetches" the package from
     * target/mcp-servers (the filesystem server) and runs it with the rest of its arguments.
     */
    private static final String FAKE_NPX = """
            #!/bin/sh
            if [ "$npm_config_offline" = true ]; then
              echo "npm error code ENOTCACHED" >&2
              echo "npm error request to https://registry.npmjs.org/$2 failed: cache mode is 'only-if-cached' but no\
             cached response is available." >&2
              echo "npm error A complete log of this run can be found in: /tmp/.npm/_logs/debug-0.log" >&2
              exit 1
            fi
            online=no
            while read -r name rest; do case "$name" in lo:|Inter-*|face) ;; *:) online=yes ;; esac; done < /proc/net/dev
            if [ "$online" = no ]; then
              echo "npm error code EAI_AGAIN" >&2
              echo "npm error request to https://registry.npmjs.org/$2 failed, reason: getaddrinfo EAI_AGAIN\
             registry.npmjs.org" >&2
              exit 1
            fi
            shift 2
            exec NODE SERVER "$@"
            """;

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

    /** The line every README copies, for {@code npx} (the fake one) in {@code bin}, serving {@code served}. */
    private Path npxConfig(Path bin, Path served, String more) throws Exception {
        Path npx = bin.resolve("npx");
        Files.createDirectories(bin);
        Files.writeString(npx, FAKE_NPX.replace("NODE", McpReferenceServers.node())
                .replace("SERVER", McpReferenceServers.filesystem().toString()));
        Files.setPosixFilePermissions(npx, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        return Files.writeString(dir.resolve("agent.toml"), "[[mcp.servers]]\nname = \"fs\"\ncommand = \"" + npx
                + "\"\nargs = [\"-y\", \"@modelcontextprotocol/server-filesystem\", \"" + served + "\"]\n"
                + "read_only = [\"" + bin + "\", \"" + McpReferenceServers.folder() + "\"]\n" + more);
    }

    @Test
    void the_copied_npx_line_without_the_network_fails_at_once_quoting_npm_and_saying_both_fixes_exit_3()
            throws Exception {
        Bwrap.required();
        Path served = Files.createDirectories(dir.resolve("served"));
        long start = System.nanoTime();

        Run run = list(npxConfig(dir.resolve("bin"), served, "read_write = [\"" + served + "\"]\n"));

        assertThat(run.code()).as(run.out()).isEqualTo(3);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("npx is not waited out").isLessThan(
                Duration.ofSeconds(20));
        assertThat(run.out()).contains("fs (stdio, sandboxed, network off: ", "): failed — did not start: it exited"
                + " before completing MCP's initialize handshake (it said on stderr: \"npm error request to"
                + " https://registry.npmjs.org/@modelcontextprotocol/server-filesystem failed: cache mode is"
                + " 'only-if-cached' but no cached response is available.\"); npx fetches"
                + " @modelcontextprotocol/server-filesystem from the npm registry when it starts, so it needs the"
                + " network and a writable cache (~/.npm), and this server's sandbox has no network (network = false),"
                + " so npx is run offline (npm_config_offline) and fails at once: set network = true on"
                + " [[mcp.servers]] fs", "or install it once (npm install --prefix DIR"
                + " @modelcontextprotocol/server-filesystem)")
                .doesNotContain("is it an MCP server")
                .endsWith("agent mcp list: 1 of 1 MCP servers did not answer with their tools: fs (failed); each one's"
                        + " line above says why\n");
    }

    @Test
    void the_copied_npx_line_works_with_network_on_for_its_server_and_its_folder_read_write_each_tool_on_a_line()
            throws Exception {
        Bwrap.required();
        Path served = Files.createDirectories(dir.resolve("served"));

        Run run = list(npxConfig(dir.resolve("bin"), served, "network = true\nread_write = [\"" + served + "\"]\n"));

        assertThat(run.code()).as(run.out()).isZero();
        assertThat(run.out()).contains("fs (stdio, sandboxed, network on: ", "): ready, ",
                "\n  mcp.fs.create_directory(path: string) — Create a new directory or ensure a directory exists.\n")
                .doesNotContain("Can create multiple nested directories");
        assertThat(run.out().lines().filter(l -> l.startsWith("  "))).hasSize(14)
                .allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(100));
    }

    @Test
    void without_servers_it_says_how_to_add_one() throws Exception {
        Run run = list(Files.writeString(dir.resolve("agent.toml"), ""));

        assertThat(run.code()).isZero();
        assertThat(run.out()).isEqualTo("no MCP server is configured ([[mcp.servers]] in agent.toml)\n");
    }
}
