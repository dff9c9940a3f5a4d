package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.Launch;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeOpenAiServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
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
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Interop with the official A2A Python SDK (a2a-sdk 1.3.0, installed by scripts/a2a-sdks into target/a2a-sdks): its
 * client sends to a real `agent run` serving [a2a] listen, blocking and streaming, and prints the scripted model's
 * answer, which the model gave with note_reply to the peer's note. Skipped, saying why, when the SDK is not installed.
 */
@Timeout(120)
class A2aInteropEndToEndTest {
    static final Path PYTHON = Path.of("target", "a2a-sdks", "venv", "bin", "python");
    static final Pattern PEER_NOTE = Pattern.compile("\\[note (\\d+) from peer");

    @TempDir Path dir;
    FakeOpenAiServer llm;
    Path db;
    Path config;
    int port;
    final Set<String> answered = ConcurrentHashMap.newKeySet();

    @BeforeEach
    void start() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(PYTHON), "skipped: the A2A Python SDK is not installed in "
                + PYTHON.getParent().getParent() + " (scripts/a2a-sdks installs it; .ci/run does)");
        llm = new FakeOpenAiServer();
        // the model answers each peer's note it has not answered yet with note_reply, and otherwise says nothing
        llm.script(request -> {
            String body = request.getBody() == null ? "" : request.getBody().utf8();
            Matcher m = PEER_NOTE.matcher(body);
            while (m.find()) {
                if (answered.add(m.group(1))) {
                    return FakeOpenAiServer.streamedResponse("Answering the peer.\n# Commands:\n[{\"cmd_id\": \"r-"
                            + m.group(1) + "\", \"type\": \"note_reply\", \"args\": {\"id\": " + m.group(1)
                            + ", \"text\": \"the scripted answer to note " + m.group(1) + "\"}}]\n# End commands", 10, 5, 0);
                }
            }
            return FakeOpenAiServer.streamedResponse("Nothing to do.\n# Commands:\n[{\"cmd_id\": \"i\", \"type\":"
                    + " \"idle\", \"args\": {}}]\n# End commands", 10, 5, 0);
        });
        db = dir.resolve("agent.db");
        config = dir.resolve("agent.toml");
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n[a2a]\nlisten = \"127.0.0.1:" + port + "\"\n");
        Store.open(db, Clock.systemUTC()).close();
    }

    @AfterEach
    void stop() {
        if (llm != null) llm.close();
    }

    @Test
    void the_python_sdks_client_gets_the_agents_answer_blocking_and_streaming() throws Exception {
        CompletableFuture<Run> running = CompletableFuture.supplyAsync(() -> cli("run", "--hz", "20",
                "--exit-on-lockout"));
        String url = "http://127.0.0.1:" + port + "/";
        Client blocking = python(url, "what is the disk usage?");
        Client streaming = python(url, "and the load?", "--stream");

        assertThat(blocking.code()).as(blocking.err()).isZero();
        assertThat(streaming.code()).as(streaming.err()).isZero();
        assertThat(List.of(blocking.out().strip(), streaming.out().strip())).allMatch(s -> s.startsWith(
                "the scripted answer to note "));
        assertThat(blocking.out()).isNotEqualTo(streaming.out());
        assertThat(cli("halt", "--reason", "done").code()).isZero();
        Run run = running.get(60, TimeUnit.SECONDS);
        assertThat(run.out() + run.err()).contains("A2A: serving " + url);
    }

    @Test
    void our_agent_asks_a_server_written_with_the_python_sdk_and_one_written_with_the_js_sdk() throws Exception {
        Path node = Path.of("target", "a2a-sdks", "js", "node_modules", "@a2a-js", "sdk");
        int pyPort = freePort();
        Process py = new ProcessBuilder(PYTHON.toString(), Path.of("src", "test", "resources", "a2a", "py_server.py")
                .toString(), Integer.toString(pyPort)).redirectErrorStream(true).redirectOutput(dir.resolve("py.log")
                .toFile()).start();
        Process js = null;
        int jsPort = freePort();
        if (Files.isDirectory(node) && commandExists("node")) {
            Path script = Files.copy(Path.of("src", "test", "resources", "a2a", "js_server.mjs"),
                    Path.of("target", "a2a-sdks", "js", "server.mjs"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            js = new ProcessBuilder("node", script.toString(), Integer.toString(jsPort)).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("js.log").toFile()).start();
        }
        try {
            awaitPort(pyPort);
            List<String> peers = new ArrayList<>(List.of("py"));
            assertThat(cli("peers", "add", "py", "http://127.0.0.1:" + pyPort + "/").code()).isZero();
            if (js != null) {
                awaitPort(jsPort);
                assertThat(cli("peers", "add", "js", "http://127.0.0.1:" + jsPort + "/").code()).isZero();
                peers.add("js");
            }
            Files.writeString(config, Files.readString(config) + "allow = [\"py\", \"js\"]\n");
            llm.script(request -> {
                String body = request.getBody() == null ? "" : request.getBody().utf8();
                for (String p : peers) {
                    if (body.contains("Asking " + p + ".")) continue;
                    return FakeOpenAiServer.streamedResponse("Asking " + p + ".\n# Commands:\n[{\"cmd_id\": \"" + p
                            + "\", \"type\": \"peer_message\", \"args\": {\"peer\": \"" + p + "\", \"text\":"
                            + " \"hello from hmp-agent to " + p + "\"}}]\n# End commands", 10, 5, 0);
                }
                return FakeOpenAiServer.streamedResponse("Done.\n# Commands:\n[{\"cmd_id\": \"i\", \"type\":"
                        + " \"idle\", \"args\": {}}]\n# End commands", 10, 5, 0);
            });
            assertThat(cli("note", "ask the peers").code()).isZero();
            CompletableFuture<Run> running = CompletableFuture.supplyAsync(() -> cli("run", "--hz", "20",
                    "--exit-on-lockout"));
            for (String p : peers) {
                assertThat(awaitRow("SELECT status || ': ' || result FROM process_log WHERE name = 'peer_message'"
                        + " AND cmd_id = '" + p + "' AND status NOT IN ('running', 'pending')"))
                        .startsWith("ok").contains("echo: hello from hmp-agent to " + p);
            }
            assertThat(cli("halt", "--reason", "done").code()).isZero();
            running.get(60, TimeUnit.SECONDS);
            Assumptions.assumeTrue(js != null, "the JS server was skipped: node or @a2a-js/sdk is not installed"
                    + " (scripts/a2a-sdks installs it)");
        } finally {
            py.destroy();
            if (js != null) js.destroy();
        }
    }

    private static boolean commandExists(String name) {
        try {
            return new ProcessBuilder(name, "--version").start().waitFor() == 0;
        } catch (java.io.IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static int freePort() throws java.io.IOException {
        try (ServerSocket free = new ServerSocket(0)) {
            return free.getLocalPort();
        }
    }

    private static void awaitPort(int port) throws Exception {
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
                return;
            } catch (java.io.IOException notYet) {
                Thread.sleep(50);
            }
        }
        throw new AssertionError("nothing listens on port " + port);
    }

    private String awaitRow(String sql) throws Exception {
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db);
                 java.sql.ResultSet rs = c.createStatement().executeQuery(sql)) {
                if (rs.next()) return rs.getString(1);
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no row for " + sql);
    }

    record Client(int code, String out, String err) { }

    private Client python(String url, String text, String... more) throws Exception {
        List<String> argv = new ArrayList<>(List.of(PYTHON.toString(), Path.of("src", "test", "resources", "a2a",
                "py_client.py").toString(), url, text));
        argv.addAll(List.of(more));
        Process p = new ProcessBuilder(argv).redirectErrorStream(false).start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        String out = read(p.getInputStream());
        if (!p.waitFor(90, TimeUnit.SECONDS)) p.destroyForcibly();
        return new Client(p.exitValue(), out, err.get());
    }

    private static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            return e.toString();
        }
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
}
