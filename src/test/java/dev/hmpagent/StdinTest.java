package dev.hmpagent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No process the agent or its tests start shares the JVM's standard input. In a test run that is surefire's command
 * channel to the forked JVM: a child holding it can read commands meant for the JVM, and node (npm) turns it
 * non-blocking while it runs (the same open file, so the JVM's reads fail with "Resource temporarily unavailable"),
 * which ended a run in "std/in stream corrupted" and BUILD FAILURE after every test had passed. A child gets a pipe
 * (ProcessBuilder's default) or {@code /dev/null}, never the JVM's own (inheritIO, an INHERIT redirect).
 */
class StdinTest {
    /** Spelled in two parts, so this file does not find itself. */
    private static final Pattern INHERITED = Pattern.compile("inherit" + "IO\\(|Redirect\\.INHE" + "RIT");

    @Test
    void no_process_is_started_with_the_jvm_s_standard_input() throws IOException {
        List<String> found = new ArrayList<>();
        for (String tree : List.of("src/main/java", "src/test/java")) {
            try (Stream<Path> files = Files.walk(Path.of(tree))) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    List<String> lines = Files.readAllLines(file);
                    for (int n = 0; n < lines.size(); n++) {
                        if (INHERITED.matcher(lines.get(n)).find()) found.add(file + ":" + (n + 1) + ": " + lines.get(n).strip());
                    }
                }
            }
        }

        assertThat(found).as("give the child /dev/null or a pipe").isEmpty();
    }

    @Test
    void the_test_jvm_s_standard_input_is_still_blocking() throws IOException {
        Path fdinfo = Path.of("/proc/self/fdinfo/0");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(fdinfo), "skipped: no /proc/self/fdinfo");
        String flags = Files.readAllLines(fdinfo).stream().filter(l -> l.startsWith("flags:")).findFirst().orElseThrow();
        int octal = Integer.parseInt(flags.substring("flags:".length()).strip(), 8);

        assertThat(octal & 04000).as("O_NONBLOCK on fd 0 (" + flags + ")").isZero();
    }
}
