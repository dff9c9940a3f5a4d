package dev.hmpagent.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SetIdBitsTest {
    @TempDir Path root;

    static int mode(Path p) throws IOException {
        return (Integer) Files.getAttribute(p, "unix:mode", java.nio.file.LinkOption.NOFOLLOW_LINKS) & 07777;
    }

    static void chmod(Path p, String mode) throws Exception {
        Process c = new ProcessBuilder("chmod", mode, p.toString()).start();
        assertThat(c.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(c.exitValue()).isZero();
    }

    @Test
    void the_bits_set_since_the_stamp_on_a_file_are_taken_off_and_the_rest_of_its_mode_kept() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/find")), "skipped: no /usr/bin/find");
        Path shell = Files.createDirectories(root.resolve("sub")).resolve("rootsh");
        Files.writeString(shell, "#!/bin/sh\n");
        chmod(shell, "6755");
        Path folder = Files.createDirectories(root.resolve("shared"));
        chmod(folder, "2775");
        Files.createSymbolicLink(root.resolve("link"), shell);
        Path stamp = SetIdBits.stamp();
        SetIdBits bits = SetIdBits.in(List.of(root));

        Files.setLastModifiedTime(stamp, FileTime.fromMillis(System.currentTimeMillis() + 3_600_000));
        assertThat(bits.clearSince(stamp)).as("set before the command started").isEmpty();
        assertThat(mode(shell)).isEqualTo(06755);

        Files.setLastModifiedTime(stamp, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
        assertThat(bits.clearSince(stamp)).containsExactly(shell);
        assertThat(mode(shell)).isEqualTo(0755);
        assertThat(mode(folder)).as("a setgid folder keeps its bit").isEqualTo(02775);
        Files.delete(stamp);
    }
}
