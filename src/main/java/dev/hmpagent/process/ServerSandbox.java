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
 * process cap, not counted in {@code shell.max_processes}. For a root agent it runs as uid {@link RootDrop#UID}, its
 * paths mapped to it, as a command does ({@link RootDrop}).
 */
public final class ServerSandbox {
    private ServerSandbox() { }

    /**
     * The command line that starts {@code command} inside the sandbox of this run's {@code confinement}; empty when
     * the run has no sandbox (then the caller decides whether the server may run unconfined).
     *
     * @throws Sandbox.Unsafe when a path leads elsewhere through a symbolic link inside the file roots
     */
    public static Optional<List<String>> wrap(Confinement confinement, boolean network, List<Path> readOnly,
                                              List<Path> readWrite, List<String> command) {
        Objects.requireNonNull(confinement, "confinement");
        if (!(confinement.launcher() instanceof Sandbox sandbox)) return Optional.empty();
        Sandbox.SandboxHost host = sandbox.host();
        List<RootDrop.Bound> bound = new ArrayList<>();
        for (Path p : readOnly) bound.add(new RootDrop.Bound(Path.of(sandbox.serverPath(p)), false));
        for (Path p : readWrite) bound.add(new RootDrop.Bound(Path.of(sandbox.serverPath(p)), true));
        List<String> argv = new ArrayList<>(Sandbox.bwrap(host, bound));
        argv.addAll(Sandbox.namespaces(host, network));
        argv.addAll(Sandbox.system());
        argv.addAll(List.of("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", "/var/tmp"));
        if (network) argv.addAll(List.of("--ro-bind-try", "/run/systemd/resolve", "/run/systemd/resolve"));
        argv.addAll(Sandbox.binds(host, bound, "--bind-try", "--ro-bind-try"));
        argv.addAll(List.of("--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp", "--"));
        argv.addAll(command);
        return Optional.of(List.copyOf(argv));
    }

    /**
     * The arguments of a server's command that name a path of this machine its sandbox does not show it: an absolute
     * path that exists, outside the system and outside {@code readOnly} and {@code readWrite}. The folder a filesystem
     * server is given ({@code args = [..., "/home/me/project"]}) is the usual one: it was never listed to be seen.
     */
    public static List<String> unseen(List<String> args, List<Path> readOnly, List<Path> readWrite) {
        List<Path> seen = new ArrayList<>(Sandbox.SYSTEM);
        seen.addAll(readOnly);
        seen.addAll(readWrite);
        List<Path> shown = seen.stream().map(p -> p.toAbsolutePath().normalize()).toList();
        return args.stream().filter(a -> a.startsWith("/") && java.nio.file.Files.exists(Path.of(a)))
                .filter(a -> shown.stream().noneMatch(Path.of(a).normalize()::startsWith)).toList();
    }
}
