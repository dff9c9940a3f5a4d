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

    /** What bubblewrap says when it cannot map the uid (user namespaces turned off under a running agent). */
    public static final String BROKEN = "bwrap: setting up uid map: Permission denied";

    /**
     * A bwrap in a folder of its own that is the real one until {@link Breakable#breakIt()}, then fails as bubblewrap
     * does when user namespaces are turned off ({@link #BROKEN}, exit 1). World-readable: a root agent's sandbox
     * starts bwrap as nobody. Skipped where bwrap cannot work.
     */
    public static Breakable breakable() throws java.io.IOException {
        java.nio.file.Path real = required().bwrap();
        java.nio.file.Path bin = java.nio.file.Files.createTempDirectory("hmp-bwrap-",
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x")));
        Breakable b = new Breakable(bin);
        java.nio.file.Path bwrap = bin.resolve("bwrap");
        java.nio.file.Files.writeString(bwrap, "#!/bin/sh\nif [ -e " + b.flag() + " ]; then echo '" + BROKEN
                + "' >&2; exit 1; fi\nexec " + real + " \"$@\"\n");
        java.nio.file.Files.setPosixFilePermissions(bwrap,
                java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        return b;
    }

    /** The folder holding the breakable bwrap: put it first on the agent's PATH. */
    public record Breakable(java.nio.file.Path bin) implements AutoCloseable {
        java.nio.file.Path flag() {
            return bin.resolve("broken");
        }

        /** From now on, bwrap fails. */
        public void breakIt() throws java.io.IOException {
            java.nio.file.Files.writeString(flag(), "");
        }

        /** {@link #bin()} first, then this JVM's PATH. */
        public String path() {
            return bin + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        }

        @Override
        public void close() throws java.io.IOException {
            for (String name : new String[] {"broken", "bwrap"}) java.nio.file.Files.deleteIfExists(bin.resolve(name));
            java.nio.file.Files.deleteIfExists(bin);
        }
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
