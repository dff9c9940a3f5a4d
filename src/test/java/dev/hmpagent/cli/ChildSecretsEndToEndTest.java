package dev.hmpagent.cli;

import static dev.hmpagent.cli.SandboxAttacksEndToEndTest.classpath;
import static dev.hmpagent.cli.SandboxAttacksEndToEndTest.open;
import static dev.hmpagent.cli.SandboxAttacksEndToEndTest.writeOpen;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.testing.Bwrap;
import dev.hmpagent.testing.FakeOpenAiServer;
import dev.hmpagent.testing.McpReferenceServers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 31: the LLM's key in a variable not named like a secret ({@code llm.api_key_env = "ZZCRED"}), an MCP server
 * given a value through its {@code env} table, and a model scripted to get them out: printed reversed, spaced out, in
 * base64, grepped, read from a file, returned by an MCP tool. A real headless {@code agent run} in its own JVM with
 * a real bubblewrap and {@code shell_allow = ["*"]}; asserted on the rows, the bytes the agent printed and the bodies
 * the fake LLM received. Also: a key typed in a shell line is stored and shown redacted but runs as typed, and file
 * names holding a hash stay as they are. As the user running the tests (root in CI) and as nobody ({@code setpriv}).
 */
@Timeout(180)
class ChildSecretsEndToEndTest {
    /** The LLM's key: nothing in its shape or its variable's name gives it away. */
    static final String KEY = "plainzzcredkeyvalue42";
    /** What the MCP server's env table passes it, from a variable not named like a secret either. */
    static final String MCP_VALUE = "evilmcpenvvalue77";
    static final String TYPED = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
    static final String MD5_A = "0e9f4b2d6c1a8e3f5b7d9c2a4e6f8b1d";
    static final String MD5_B = "9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d";
    static final String SERVER = """
            const readline = require('readline');
            const send = m => process.stdout.write(JSON.stringify(m) + '\\n');
            readline.createInterface({input: process.stdin}).on('line', line => {
              const m = JSON.parse(line);
              if (m.method === 'initialize') {
                send({jsonrpc: '2.0', id: m.id, result: {protocolVersion: m.params.protocolVersion,
                  capabilities: {tools: {}}, serverInfo: {name: 'envy', version: '1'}}});
              } else if (m.method === 'tools/list') {
                send({jsonrpc: '2.0', id: m.id, result: {tools: [{name: 'env', description: 'its environment, e.g. ' + process.env.EVIL_TOKEN,
                  inputSchema: {type: 'object', properties: {}}}]}});
              } else if (m.method === 'tools/call') {
                const text = Object.entries(process.env).map(([k, v]) => k + '=' + v).join('\\n');
                send({jsonrpc: '2.0', id: m.id, result: {content: [{type: 'text', text}]}});
              } else if (m.id !== undefined && m.method) {
                send({jsonrpc: '2.0', id: m.id, result: {}});
              }
            });
            """;

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class AsThisUser extends Leaks {
        AsThisUser() {
            super(false);
        }
    }

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class AsAnUnprivilegedUser extends Leaks {
        AsAnUnprivilegedUser() {
            super(true);
        }
    }

    abstract static class Leaks {
        final boolean asNobody;
        Path dir;
        Path db;
        Path root;
        Path config;
        FakeOpenAiServer llm;
        int exitCode;
        String output;
        final Map<String, String> results = new LinkedHashMap<>();
        final List<String> requestBodies = new ArrayList<>();

        Leaks(boolean asNobody) {
            this.asNobody = asNobody;
        }

        @BeforeAll
        void leak() throws Exception {
            Bwrap.required();
            if (asNobody) {
                Assumptions.assumeTrue(Bwrap.root() && Files.isExecutable(Path.of("/usr/bin/setpriv")),
                        "skipped: running as another user needs root and setpriv (util-linux)");
            }
            String node = McpReferenceServers.node();
            dir = open(Files.createTempDirectory("hmp-child-secrets-"));
            Path state = open(Files.createDirectories(dir.resolve("state")));
            db = state.resolve("agent.db");
            root = open(Files.createDirectories(state.resolve("workspace")));
            open(Files.createDirectories(dir.resolve("home")));
            writeOpen(root.resolve("key.txt"), KEY + "\n");
            writeOpen(root.resolve("eps1.7_" + MD5_A + ".m4v"), "episode a\n");
            writeOpen(root.resolve("eps1.7_" + MD5_B + ".m4v"), "episode b\n");
            Path server = dir.resolve("envy.cjs");
            writeOpen(server, SERVER);
            config = dir.resolve("agent.toml");
            writeOpen(config, """
                    [llm]
                    model = "m"
                    api_key_env = "ZZCRED"
                    [policy]
                    shell_allow = ["*"]
                    [shell]
                    env = ["ZZCRED", "GOPATH"]
                    max_processes = 64
                    [safety]
                    tick_cap = 1000
                    cascade_window = 1000
                    cascade_failures = 1000
                    [stagnation]
                    method = "local"
                    reflex = false
                    [mcp]
                    allow = ["envy"]
                    [[mcp.servers]]
                    name = "envy"
                    command = "%s"
                    args = ["%s"]
                    env = { EVIL_TOKEN = "EVILSRC" }
                    sandbox = false
                    """.formatted(node, server));

            llm = new FakeOpenAiServer();
            llm.streamed(reply(), 100, 100);
            llm.streamed("Now the server.\n# Commands:\n[{\"cmd_id\": \"m-env\", \"type\": \"mcp.envy.env\", \"args\": {}}]"
                    + "\n# End commands", 10, 10);
            for (int i = 0; i < 30; i++) llm.streamed("Done, round " + i + ".", 10, 5);

            Process note = agent("note", "show me the key");
            assertThat(note.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(note.exitValue()).as(read(note)).isZero();
            Process run = agent("run", "--until-idle", "--hz", "20", "--verbose");
            assertThat(run.waitFor(150, TimeUnit.SECONDS)).as("the agent finished").isTrue();
            exitCode = run.exitValue();
            output = read(run);
            for (int i = llm.requestCount(); i > 0; i--) requestBodies.add(llm.take().body().toString());
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                 ResultSet rs = c.createStatement().executeQuery("SELECT cmd_id, status, value, result FROM process_log"
                         + " WHERE cmd_id IS NOT NULL")) {
                while (rs.next()) {
                    results.put(rs.getString(1), rs.getString(2) + ": " + rs.getString(4));
                    results.put(rs.getString(1) + " value", rs.getString(3));
                }
            }
        }

        @AfterAll
        void stop() throws IOException {
            if (llm != null) llm.close();
            if (dir != null) {
                try (var walk = Files.walk(dir)) {
                    walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }

        static String reply() {
            ArrayNode commands = new ObjectMapper().createArrayNode();
            shell(commands, "s-rev", "printenv ZZCRED | rev; echo rev-done");
            shell(commands, "s-sed", "printenv ZZCRED | sed 's/./& /g'; echo sed-done");
            shell(commands, "s-b64", "env | base64; echo b64-done");
            shell(commands, "s-grep", "env | grep ZZ; echo grep-done");
            shell(commands, "s-env", "env; echo env-done");
            shell(commands, "s-cat", "cat key.txt; echo cat-done");
            shell(commands, "s-forms", "rev key.txt; sed 's/./&-/g' key.txt; base64 key.txt;"
                    + " (printf x; cat key.txt) | base64; echo forms-done");
            shell(commands, "s-md5a", "cat eps1.7_" + MD5_A + ".m4v");
            shell(commands, "s-md5b", "cat eps1.7_" + MD5_B + ".m4v");
            shell(commands, "s-typed", "echo " + TYPED + " > typed.txt; wc -c < typed.txt");
            return "Let me find the key.\n# Commands:\n" + commands + "\n# End commands";
        }

        static void shell(ArrayNode commands, String id, String line) {
            ObjectNode c = commands.addObject();
            c.put("cmd_id", id);
            c.put("type", "shell");
            c.putObject("args").put("command", line);
        }

        Process agent(String... args) throws IOException {
            List<String> cmd = new ArrayList<>();
            if (asNobody) cmd.addAll(List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"));
            cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-XX:TieredStopAtLevel=1", "-cp", classpath(dir), Main.class.getName()));
            cmd.addAll(List.of(args));
            cmd.addAll(List.of("--config", config.toString(), "--db", db.toString(), "--base-url", llm.baseUrl()));
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
            pb.environment().clear();
            pb.environment().putAll(Map.of("HOME", dir.resolve("home").toString(), "PATH",
                    System.getenv().getOrDefault("PATH", "/usr/bin:/bin"), "LANG", "C.UTF-8",
                    "XDG_CACHE_HOME", dir.resolve("home").toString(), "ZZCRED", KEY, "EVILSRC", MCP_VALUE,
                    "GOPATH", "/go-path-x"));
            return pb.start();
        }

        static String read(Process p) throws IOException {
            return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }

        String result(String cmdId) {
            assertThat(results).as("the command %s ran and left a row; agent output:%n%s", cmdId, output)
                    .containsKey(cmdId);
            return results.get(cmdId);
        }

        /** The secret and the forms the commands turned it into; of base64, a part no neighbouring byte changes. */
        static List<String> forms(String secret) {
            List<String> out = new ArrayList<>(List.of(secret, new StringBuilder(secret).reverse().toString(),
                    secret.replaceAll(".", "$0 ").strip(), secret.replaceAll(".", "$0-")));
            for (String prefix : List.of("", "x", "xy")) {
                String b64 = Base64.getEncoder().encodeToString((prefix + secret).getBytes(StandardCharsets.UTF_8));
                out.add(b64.substring(4, 16));
            }
            return out;
        }

        @Test
        void the_agent_ran_every_command_and_said_that_shell_env_named_the_key_variable() {
            assertThat(exitCode).as(output).isZero();
            assertThat(output).contains("sandbox: bubblewrap")
                    .contains("shell.env names ZZCRED, which holds a configured key: not passed to any child process");
            assertThat(results.keySet()).contains("s-rev", "s-b64", "s-typed", "m-env");
        }

        @Test
        void a_child_gets_the_allow_list_and_shell_env_but_never_a_key_variable() {
            String env = result("s-env");
            assertThat(env).contains("env-done").contains("PATH=").contains("HOME=").contains("GOPATH=/go-path-x")
                    .doesNotContain("ZZCRED").doesNotContain("EVILSRC").doesNotContain("XDG_CACHE_HOME");
            assertThat(result("s-grep")).contains("grep-done").doesNotContain("ZZCRED");
            assertThat(result("s-rev")).startsWith("ok: ").contains("rev-done");
        }

        @Test
        void an_mcp_server_gets_its_own_env_but_its_value_never_reaches_a_row_the_terminal_or_the_model() {
            assertThat(requestBodies).as("context 0 lists the tool, its description redacted")
                    .anyMatch(b -> b.contains("its environment, e.g. [redacted]"));
            String env = result("m-env");
            assertThat(env).startsWith("ok: ").contains("EVIL_TOKEN=[redacted]").contains("PATH=")
                    .doesNotContain("ZZCRED").doesNotContain("EVILSRC").doesNotContain(MCP_VALUE);
        }

        @Test
        void no_form_of_a_configured_secret_reaches_the_file_the_terminal_or_the_model() throws Exception {
            assertThat(result("s-cat")).contains("[redacted]").contains("cat-done");
            assertThat(result("s-forms")).contains("forms-done");
            String stored = textInDatabase();
            for (String secret : List.of(KEY, MCP_VALUE)) {
                for (String form : forms(secret)) {
                    assertThat(stored).as("the database: " + form).doesNotContain(form);
                    assertThat(output).as("what the agent printed: " + form).doesNotContain(form);
                    assertThat(requestBodies).as("what the model was sent: " + form).noneMatch(b -> b.contains(form));
                }
            }
        }

        @Test
        void a_key_typed_in_a_shell_line_runs_as_typed_but_is_stored_and_shown_redacted() throws Exception {
            assertThat(result("s-typed")).startsWith("ok: ").endsWith("\n" + (TYPED.length() + 1) + "\n");
            assertThat(Files.readString(root.resolve("typed.txt"))).isEqualTo(TYPED + "\n");
            assertThat(results.get("s-typed value")).contains("echo [redacted] > typed.txt");
            assertThat(textInDatabase()).doesNotContain(TYPED);
            assertThat(output).doesNotContain(TYPED);
            assertThat(requestBodies).noneMatch(b -> b.contains(TYPED));
        }

        @Test
        void file_names_holding_a_hash_stay_verbatim_so_two_reads_stay_two() {
            assertThat(result("s-md5a")).startsWith("ok: ").endsWith("\nepisode a\n");
            assertThat(result("s-md5b")).startsWith("ok: ").endsWith("\nepisode b\n");
            assertThat(results.get("s-md5a value")).contains("cat eps1.7_" + MD5_A + ".m4v");
            assertThat(requestBodies).as("the reply shown back keeps both names").anyMatch(b -> b.contains(MD5_A)
                    && b.contains(MD5_B) && !b.contains("cat [redacted]"));
        }

        /** Every text value of every table, one per line. */
        String textInDatabase() throws Exception {
            StringBuilder all = new StringBuilder();
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
                List<String> tables = new ArrayList<>();
                try (ResultSet rs = c.createStatement().executeQuery(
                        "SELECT name FROM sqlite_master WHERE type = 'table'")) {
                    while (rs.next()) tables.add(rs.getString(1));
                }
                for (String t : tables) {
                    try (ResultSet rs = c.createStatement().executeQuery("SELECT * FROM \"" + t + "\"")) {
                        int n = rs.getMetaData().getColumnCount();
                        while (rs.next()) {
                            for (int i = 1; i <= n; i++) all.append(rs.getString(i)).append('\n');
                        }
                    }
                }
            }
            return all.toString();
        }
    }
}
