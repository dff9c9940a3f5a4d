package dev.hmpagent.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The reference MCP servers from npm (software we did not write), installed at pinned versions by
 * {@code scripts/mcp-servers} into target/mcp-servers ({@code .ci/run} installs them too). Where node or npm is
 * missing, or the install fails, a test asking for one is skipped saying so: it never passes silently.
 */
public final class McpReferenceServers {
    private static final Path DIR = Path.of("target", "mcp-servers");
    /** What the install said. */
    private static final Path LOG = Path.of("target", "mcp-servers-install.log");

    private McpReferenceServers() { }

    /** The absolute path of node (18 or later, as the servers need); skips the test without it. */
    public static String node() {
        Path node = onPath("node");
        Assumptions.assumeTrue(node != null, "skipped: node not available");
        int major = major(node);
        Assumptions.assumeTrue(major >= 18, "skipped: node not available (node " + major + " is older than 18)");
        return node.toString();
    }

    private static int major(Path node) {
        try {
            Process p = new ProcessBuilder(node.toString(), "--version").redirectErrorStream(true).start();
            String v = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
            p.waitFor(10, TimeUnit.SECONDS);
            return Integer.parseInt(v.replaceFirst("^v", "").split("\\.")[0]);
        } catch (IOException | NumberFormatException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /** Where the servers are installed: what a sandboxed server's entry lists in {@code read_only}. */
    public static Path folder() {
        return DIR.toAbsolutePath();
    }

    /** The entry script of {@code @modelcontextprotocol/server-everything}, installed if need be. */
    public static Path everything() {
        return installed("server-everything");
    }

    /** The entry script of {@code @modelcontextprotocol/server-filesystem}, installed if need be. */
    public static Path filesystem() {
        return installed("server-filesystem");
    }

    private static synchronized Path installed(String name) {
        node();
        Assumptions.assumeTrue(onPath("npm") != null, "skipped: node not available (no npm to install " + name + ")");
        Path script = DIR.resolve("node_modules/@modelcontextprotocol/" + name + "/dist/index.js").toAbsolutePath();
        if (!Files.isRegularFile(script)) {
            boolean ok = install();
            Assumptions.assumeTrue(ok && Files.isRegularFile(script), "skipped: " + name
                    + " could not be installed by scripts/mcp-servers (no network to the npm registry? see " + LOG + ")");
        }
        return script;
    }

    private static boolean install() {
        try {
            // never the test JVM's stdin: surefire's command channel, which npm (node) turns non-blocking while it
            // runs, failing the build with "std/in stream corrupted" after every test passed; never its stdout either
            Files.createDirectories(LOG.getParent());
            Process p = new ProcessBuilder("scripts/mcp-servers", DIR.toString())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectErrorStream(true).redirectOutput(LOG.toFile()).start();
            return p.waitFor(300, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static Path onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) return null;
        for (String dir : path.split(java.io.File.pathSeparator)) {
            Path p = Path.of(dir, program);
            if (Files.isExecutable(p)) return p;
        }
        return null;
    }
}
