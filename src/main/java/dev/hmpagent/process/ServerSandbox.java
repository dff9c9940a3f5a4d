package dev.hmpagent.process;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The sandbox of a long-lived server the agent starts (an MCP server over stdio): bubblewrap with the same
 * namespaces and read-only system as a command's, a private /tmp and HOME, the network only when its entry says so,
 * and of the machine only the paths its entry lists, read-only or read-write. Not a shell process: no timeout, no
 * process cap, not counted in {@code shell.max_processes}.
 */
public final class ServerSandbox {
    private ServerSandbox() { }

    /**
     * The command line that starts {@code command} inside the sandbox of this run's {@code confinement}; empty when
     * the run has no sandbox (then the caller decides whether the server may run unconfined).
     */
    public static Optional<List<String>> wrap(Confinement confinement, boolean network, List<Path> readOnly,
                                              List<Path> readWrite, List<String> command) {
        Objects.requireNonNull(confinement, "confinement");
        if (!(confinement.launcher() instanceof Sandbox sandbox)) return Optional.empty();
        Sandbox.SandboxHost host = sandbox.host();
        List<String> argv = new ArrayList<>(List.of(host.bwrap().toString()));
        argv.addAll(Sandbox.namespaces(host, network));
        argv.addAll(Sandbox.system());
        argv.addAll(List.of("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", "/var/tmp"));
        if (network) argv.addAll(List.of("--ro-bind-try", "/run/systemd/resolve", "/run/systemd/resolve"));
        for (Path p : readOnly) argv.addAll(List.of("--ro-bind-try", real(p), real(p)));
        for (Path p : readWrite) argv.addAll(List.of("--bind-try", real(p), real(p)));
        argv.addAll(List.of("--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp", "--"));
        argv.addAll(command);
        return Optional.of(List.copyOf(argv));
    }

    private static String real(Path p) {
        Path absolute = p.toAbsolutePath().normalize();
        try {
            return absolute.toRealPath().toString();
        } catch (java.io.IOException e) {
            return absolute.toString();   // not there: --*-bind-try leaves it out
        }
    }
}
