package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** `agent --version`: one line, the Maven project's version, however the classes were loaded. */
class VersionTest {
    /** The project's own version, read from pom.xml (the tests' working directory is the module root). */
    static String pomVersion() throws IOException {
        Matcher m = Pattern.compile("<artifactId>hmp-agent</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(Path.of("pom.xml")));
        assertThat(m.find()).as("the project version in pom.xml").isTrue();
        return m.group(1);
    }

    @ParameterizedTest(name = "agent {0}")
    @ValueSource(strings = {"--version", "-V", "log --version", "completion -V"})
    void prints_one_line_with_the_maven_project_version(String args) throws IOException {
        CliRun run = CliRun.agent(args.split(" "));

        assertThat(run.code()).isZero();
        assertThat(run.out()).isEqualTo("hmp-agent " + pomVersion() + System.lineSeparator());
        assertThat(run.err()).isEmpty();
    }

    @ParameterizedTest(name = "java ... Main {0}")
    @ValueSource(strings = {"--version", "-V", "--version -V"})
    void main_prints_the_same_line_in_a_process_of_its_own(String args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args.split(" ")));
        Process main = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String printed = new String(main.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(main.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(main.exitValue()).isZero();
        assertThat(printed).isEqualTo("hmp-agent " + pomVersion() + System.lineSeparator())
                .isEqualTo(CliRun.agent("--version").out());
    }

    @Test
    void the_filtered_resource_wins_then_the_manifest_then_unknown() {
        assertThat(Version.pick("1.2.0", "0.9")).isEqualTo("1.2.0");
        assertThat(Version.pick("${project.version}", "0.9")).as("a resource Maven never filtered").isEqualTo("0.9");
        assertThat(Version.pick("", "0.9")).isEqualTo("0.9");
        assertThat(Version.pick("", null)).isEqualTo("unknown");
        assertThat(Version.pick("${project.version}", " ")).isEqualTo("unknown");
    }
}
