package dev.hmpagent.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One {@code agent} subcommand in a JVM of its own, from this test JVM's classpath, as a headless test drives it:
 * {@code --config}, {@code --db} and {@code --base-url} given, the working directory {@code workDir}, and only HOME,
 * PATH and a UTF-8 locale of the environment. Output and errors together on its stdout.
 */
public final class AgentJvm {
    private final Path config;
    private final Path db;
    private final String baseUrl;
    private final Path workDir;
    private final Path home;

    public AgentJvm(Path config, Path db, String baseUrl, Path workDir, Path home) {
        this.config = config;
        this.db = db;
        this.baseUrl = baseUrl;
        this.workDir = workDir;
        this.home = home;
    }

    /** Starts {@code agent ARGS --config … --db … --base-url …}. */
    public Process start(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), "dev.hmpagent.cli.Main"));
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("--config", config.toString(), "--db", db.toString(), "--base-url", baseUrl));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile()).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().putAll(Map.of("HOME", home.toString(), "PATH",
                System.getenv().getOrDefault("PATH", "/usr/bin:/bin"), "LANG", "C.UTF-8"));
        return pb.start();
    }

    /** All it printed, to its end. */
    public static String read(Process p) throws IOException {
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
}
