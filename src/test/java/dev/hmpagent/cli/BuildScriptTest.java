package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/lib/build.bash, which scripts/agent sources to build the jar on a first run: it says what the build is doing
 * as Maven does it (a first build downloads for minutes), and shows Maven's whole output only when the build fails.
 * Maven is a fake on PATH that writes what the real one writes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BuildScriptTest {
    private static final Path LIBRARY = Path.of("scripts/lib/build.bash").toAbsolutePath();

    @TempDir Path dir;

    private record Result(int code, String out, String err) { }

    private Result buildWith(String fakeMaven) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path mvn = Files.writeString(bin.resolve("mvn"), "#!/usr/bin/env bash\n" + fakeMaven);
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", "set -euo pipefail; source \"$0\"; build_jar \"$1\"",
                LIBRARY.toString(), dir.toString()).redirectInput(new File("/dev/null"));
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        Path out = dir.resolve("out");
        Path err = dir.resolve("err");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(50, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void a_first_build_says_each_step_as_maven_takes_it_and_how_many_files_it_downloaded() throws Exception {
        Result r = buildWith("""
                echo "[INFO] Scanning for projects..."
                for i in 1 2 3; do
                  echo "Downloading from central: https://repo.maven.apache.org/maven2/a/$i.jar"
                  echo "Downloaded from central: https://repo.maven.apache.org/maven2/a/$i.jar (10 kB at 1 MB/s)"
                done
                echo "[INFO] --- maven-compiler-plugin:3.13.0:compile (default-compile) @ hmp-agent ---"
                echo "[INFO] --- maven-compiler-plugin:3.13.0:testCompile (default-testCompile) @ hmp-agent ---"
                echo "[INFO] --- maven-jar-plugin:3.4.1:jar (default-jar) @ hmp-agent ---"
                echo "[INFO] --- maven-shade-plugin:3.6.0:shade (default) @ hmp-agent ---"
                echo "[INFO] BUILD SUCCESS"
                """);

        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).as("nothing on stdout: it is the agent's").isEmpty();
        List<String> lines = r.err().lines().toList();
        assertThat(lines).hasSize(5);
        assertThat(lines.get(0)).startsWith("scripts/agent: downloading what the build needs (the first build only;"
                + " it takes a few minutes)");
        assertThat(lines.subList(1, 4)).containsExactly("scripts/agent: downloaded 3 files", "scripts/agent: compiling...",
                "scripts/agent: packaging the jar...");
        assertThat(lines.get(4)).matches("scripts/agent: built in \\d+ s");
        assertThat(r.err()).doesNotContain("BUILD SUCCESS");
    }

    @Test
    void a_failed_build_shows_mavens_whole_output_and_says_so() throws Exception {
        Result r = buildWith("""
                echo "[INFO] --- maven-compiler-plugin:3.13.0:compile (default-compile) @ hmp-agent ---"
                echo "[ERROR] Foo.java:[3,1] class, interface, enum, or record expected"
                exit 1
                """);

        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("scripts/agent: compiling...").contains("[ERROR] Foo.java:[3,1]")
                .endsWith("scripts/agent: the build failed (output above)\n");
    }
}
