package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.Launch;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.Bwrap;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * `agent check` lists the configured MCP servers — name, transport, sandbox profile in force — without starting
 * them, names variables but never their values, and says each risk (unconfined, will not start) on a line of its own.
 */
@Timeout(60)
class CheckMcpServersTest {
    private static final String SECRET = "ghp_the-value-nobody-may-see-1234";

    @TempDir Path dir;
    Path db;
    String out;

    @BeforeEach
    void file() {
        db = dir.resolve("agent.db");
        Store.open(db, Clock.systemUTC()).close();
    }

    int check(String path, String toml) throws Exception {
        Files.writeString(dir.resolve("agent.toml"), "[llm]\nmodel = \"m\"\n" + toml);
        StringWriter o = new StringWriter();
        Map<String, String> env = new HashMap<>(Map.of("HOME", dir.resolve("home").toString(), "PATH", path));
        env.put("MY_GITHUB_TOKEN", SECRET);
        env.put("MY_AUTH", "Bearer " + SECRET);
        Launch launch = new Launch(Map.copyOf(env),
                () -> new DumbTerminal(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()),
                Clock.systemUTC(), false);
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(o, true));
        cl.setErr(new PrintWriter(o, true));
        int code = cl.execute("--config", dir.resolve("agent.toml").toString(), "--db", db.toString(), "check");
        out = o.toString();
        return code;
    }

    /** A stdio server that would leave a file behind if it were started. */
    String starter(String name, String more) {
        return "[[mcp.servers]]\nname = \"" + name + "\"\ncommand = \"/bin/sh\"\nargs = [\"-c\", \"touch "
                + dir.resolve(name + ".started") + "\"]\n" + more;
    }

    @Test
    void what_children_get_is_said_by_name_and_a_key_variable_named_in_shell_env_is_refused_in_one_line()
            throws Exception {
        assertThat(check(SandboxModeTest.systemPath(), "api_key_env = \"MY_AUTH\"\n[shell]\nenv = [\"MY_AUTH\","
                + " \"MY_GITHUB_TOKEN\"]\n")).isZero();

        assertThat(out).contains("child processes get only HOME, MY_GITHUB_TOKEN, PATH of the environment;")
                .contains("shell.env names MY_AUTH, which holds a configured key: not passed to any child process"
                        + " (remove it from shell.env)")
                .doesNotContain(SECRET);
    }

    @Test
    void no_server_is_one_line_saying_none() throws Exception {
        assertThat(check(SandboxModeTest.systemPath(), "")).isZero();

        assertThat(out.lines().filter(l -> l.contains("MCP") || l.startsWith("mcp server")))
                .containsExactly("MCP servers: none configured ([[mcp.servers]] in agent.toml)");
    }

    @Test
    void a_sandboxed_server_is_listed_with_its_paths_and_network_and_its_variables_by_name_only() throws Exception {
        Bwrap.required();
        String toml = starter("gh", "env = { GITHUB_TOKEN = \"MY_GITHUB_TOKEN\" }\nread_only = [\"/opt/mcp\"]\n"
                + "read_write = [\"" + dir.resolve("work") + "\"]\n");

        assertThat(check(SandboxModeTest.systemPath(), toml)).as("%s", out).isZero();

        assertThat(out).contains("MCP servers: 1 configured, not started by check (agent mcp list starts them and"
                + " shows their tools):\n  gh: stdio: /bin/sh -c touch " + dir.resolve("gh.started")
                + " (env GITHUB_TOKEN from $MY_GITHUB_TOKEN); sandboxed: read-only /opt/mcp, read-write "
                + dir.resolve("work") + ", network off\n");
        assertThat(out).doesNotContain(SECRET).doesNotContain("mcp server gh:").contains("agent.db: ok");
        assertThat(dir.resolve("gh.started")).as("check starts no server").doesNotExist();
    }

    @Test
    void sandbox_false_is_said_as_a_risk_of_its_own_and_the_network_flag_is_shown() throws Exception {
        Bwrap.required();
        String toml = starter("free", "sandbox = false\n") + starter("net", "network = true\n");

        assertThat(check(SandboxModeTest.systemPath(), toml)).as("%s", out).isZero();

        assertThat(out).contains("MCP servers: 2 configured, not started by check")
                .contains("\n  free: stdio: /bin/sh -c touch " + dir.resolve("free.started")
                        + "; unconfined (sandbox = false)\n")
                .contains("; sandboxed: read-only none, read-write none, network on\n")
                .contains("\nmcp server free: sandbox = false: runs unconfined, with your user's rights on your files"
                        + " and the network, including this agent's database and its own environment"
                        + " (/proc/<agent pid>/environ, with every API key the agent was started with)\n")
                .doesNotContain("mcp server net:");
        assertThat(dir.resolve("free.started")).doesNotExist();
        assertThat(dir.resolve("net.started")).doesNotExist();
    }

    @Test
    void the_copied_npx_line_is_named_before_anything_starts_with_what_it_needs_and_both_fixes() throws Exception {
        Bwrap.required();
        String toml = "[[mcp.servers]]\nname = \"fs\"\ncommand = \"npx\"\nargs = [\"-y\","
                + " \"@modelcontextprotocol/server-filesystem\", \"" + dir + "\"]\n"
                + "[[mcp.servers]]\nname = \"git\"\ncommand = \"uvx\"\nargs = [\"mcp-server-git\"]\nnetwork = true\n";

        assertThat(check(SandboxModeTest.systemPath(), toml)).as("%s", out).isZero();

        assertThat(out).contains("\nmcp server fs: will not start as it is: npx fetches"
                + " @modelcontextprotocol/server-filesystem from the npm registry when it starts, so it needs the"
                + " network and a writable cache (~/.npm), and this server's sandbox has no network (network = false),"
                + " so npx is run offline (npm_config_offline) and fails at once: set network = true on [[mcp.servers]]"
                + " fs (the package is then fetched into the sandbox's own HOME at each start), or install it once"
                + " (npm install --prefix DIR @modelcontextprotocol/server-filesystem), set command ="
                + " \"DIR/node_modules/.bin/<its program>\" and add DIR to read_only (as absolute paths); network can"
                + " then stay off\n")
                .contains("\nmcp server git: uvx fetches mcp-server-git from PyPI when it starts, so it needs the"
                        + " network and a writable cache (~/.cache/uv); in its sandbox HOME is its own /tmp, so the"
                        + " cache is fetched anew at each start: to start faster, install it once (uv tool install"
                        + " mcp-server-git)");
    }

    @Test
    void a_folder_an_argument_names_that_the_sandbox_does_not_show_is_said_with_the_key_that_shows_it()
            throws Exception {
        Bwrap.required();
        java.nio.file.Path project = Files.createDirectories(dir.resolve("project"));
        java.nio.file.Path listed = Files.createDirectories(dir.resolve("listed"));
        String toml = starter("fs", "").replace("args = [", "args = [\"" + project + "\", \"" + listed
                + "\", \"/usr/share\", \"/nonexistent/x\", ") + "read_only = [\"" + listed + "\"]\n";

        assertThat(check(SandboxModeTest.systemPath(), toml)).as("%s", out).isZero();

        assertThat(out).contains("\nmcp server fs: its command line names " + project + ", which its sandbox does"
                + " not show it: add it (or a folder above) to read_only, or read_write if it writes there, on this"
                + " entry\n");
        assertThat(out.lines().filter(l -> l.startsWith("mcp server fs: its command line"))).hasSize(1);
        String installed = starter("own", "").replace("command = \"/bin/sh\"", "command = \"" + project.resolve("srv")
                + "\"");
        Files.writeString(project.resolve("srv"), "#!/bin/sh\n");
        assertThat(check(SandboxModeTest.systemPath(), installed)).as("%s", out).isZero();
        assertThat(out).contains("\nmcp server own: its command line names " + project.resolve("srv") + ", which");
        assertThat(dir.resolve("fs.started")).doesNotExist();
    }

    @Test
    void a_folder_without_a_database_yet_is_fine_the_file_is_made_at_first_start() throws Exception {
        Files.delete(db);

        assertThat(check(SandboxModeTest.systemPath(), "")).as("%s", out).isZero();

        assertThat(out).endsWith(db + ": not there yet: made at first start (agent, or agent run, creates it)\n")
                .doesNotContain("does not exist");
        assertThat(db).as("check makes no file").doesNotExist();
    }

    @Test
    void a_url_server_shows_its_url_with_credentials_hidden_and_its_header_variables_by_name() throws Exception {
        String toml = "[[mcp.servers]]\nname = \"web\"\nurl = \"https://me:pw@mcp.example.com/mcp\"\n"
                + "headers = { Authorization = \"MY_AUTH\" }\n";

        assertThat(check(SandboxModeTest.systemPath(), toml)).as("%s", out).isZero();

        assertThat(out).contains("\n  web: http: https://****@mcp.example.com/mcp (headers Authorization"
                + " from $MY_AUTH); not started by the agent, so no sandbox of ours\n");
        assertThat(out).doesNotContain(SECRET).doesNotContain(":pw@");
    }

    @Test
    void without_a_sandbox_a_confined_entry_runs_unconfined_and_says_so() throws Exception {
        assertThat(check(SandboxModeTest.systemPath(), "[sandbox]\nmode = \"off\"\n" + starter("files", ""))).isZero();

        assertThat(out).contains("\n  files: stdio: /bin/sh -c touch " + dir.resolve("files.started")
                        + "; unconfined: no sandbox here\n")
                .contains("\nmcp server files: runs unconfined, with your user's rights on your files and the network,"
                        + " including this agent's database and its own environment (/proc/<agent pid>/environ, with"
                        + " every API key the agent was started with): this run has no sandbox (the sandbox line above"
                        + " says why)\n");
    }

    @Test
    void a_required_sandbox_that_is_missing_or_an_unset_variable_means_the_server_will_not_start() throws Exception {
        String toml = "[sandbox]\nmode = \"required\"\n" + starter("files", "env = { TOKEN = \"NOT_SET_HERE\" }\n");

        assertThat(check("/nonexistent", toml)).isZero();

        assertThat(out).contains("\n  files: stdio: /bin/sh -c touch " + dir.resolve("files.started")
                        + " (env TOKEN from $NOT_SET_HERE); refused: no sandbox here\n")
                .contains("\nmcp server files: will not start: sandbox.mode = \"required\" and no sandbox works here;"
                        + " set sandbox = false on this entry to run it unconfined\n")
                .contains("\nmcp server files: will not start: env.TOKEN names the environment variable"
                        + " NOT_SET_HERE, which is not set\n");
    }
}
