package dev.hmpagent.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The real agent program as a person starts it: a separate JVM running {@code dev.hmpagent.cli.Main} from this test
 * JVM's classpath (target/classes and the dependencies, no jar needed), with a home and a cache of its own, an
 * almost empty config file, the database in {@code dir}, and a UTF-8 locale. Nothing of the test's environment leaks
 * in (no API key, no NO_COLOR).
 */
public final class AgentProgram {
    private final Path dir;
    private final String baseUrl;

    private AgentProgram(Path dir, String baseUrl) {
        this.dir = Objects.requireNonNull(dir, "dir");
        this.baseUrl = Objects.requireNonNull(baseUrl, "baseUrl");
    }

    /** Prepares {@code dir}: home, cache and agent.toml ({@code [llm] model = "m"}). */
    public static AgentProgram in(Path dir, String baseUrl) throws IOException {
        Files.createDirectories(dir.resolve("home"));
        Files.createDirectories(dir.resolve("cache"));
        Files.writeString(dir.resolve("agent.toml"), "[llm]\nmodel = \"m\"\n");
        return new AgentProgram(dir, baseUrl);
    }

    public Path db() {
        return dir.resolve("agent.db");
    }

    /** The command line: {@code java <cheap-start flags> -cp <classpath> dev.hmpagent.cli.Main --config … --db …}. */
    public List<String> argv() {
        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                "-cp", System.getProperty("java.class.path"), "dev.hmpagent.cli.Main",
                "--config", dir.resolve("agent.toml").toString(), "--db", db().toString(),
                "--base-url", baseUrl, "--model", "m"));
        return List.copyOf(argv);
    }

    /** The whole environment the program sees, with {@code term} as TERM. */
    public Map<String, String> env(String term) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("HOME", dir.resolve("home").toString());
        env.put("XDG_CACHE_HOME", dir.resolve("cache").toString());
        env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("LANG", "C.UTF-8");
        env.put("LC_ALL", "C.UTF-8");
        env.put("TERM", term);
        return Map.copyOf(env);
    }
}
