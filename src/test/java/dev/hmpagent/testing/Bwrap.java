package dev.hmpagent.testing;

import dev.hmpagent.process.Sandbox;
import dev.hmpagent.process.SandboxProbe;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/**
 * For tests that need a working bubblewrap: they are skipped, saying so, where it is missing or cannot make a
 * sandbox (never passed silently). `.ci/run` installs it, so they run in CI.
 */
public final class Bwrap {
    private Bwrap() { }

    /** The host's sandbox tools, or the test is skipped with "skipped: bwrap not available: …". */
    public static Sandbox.SandboxHost required() {
        SandboxProbe.Result r = SandboxProbe.probe(Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin")));
        Assumptions.assumeTrue(r instanceof SandboxProbe.Result.Works,
                () -> "skipped: bwrap not available: " + ((SandboxProbe.Result.Fails) r).reason());
        return ((SandboxProbe.Result.Works) r).host();
    }

    /** True when this JVM runs as root (uid 0). */
    public static boolean root() {
        try {
            return ((Integer) java.nio.file.Files.getAttribute(java.nio.file.Path.of("/proc/self"), "unix:uid")) == 0;
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }
}
