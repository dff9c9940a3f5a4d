package dev.hmpagent.process;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Finds out once whether bubblewrap works on this machine for this user: the binary on the agent's {@code PATH} (or
 * in {@code /usr/bin}), and a trivial sandbox with the real options actually started. Says why not in one line
 * with what to do ("bwrap not found: apt-get install bubblewrap").
 */
public final class SandboxProbe {
    /** How long one trial sandbox may take before it counts as not working. */
    private static final long TRIAL_SECONDS = 10;

    /** What the probe found. */
    public sealed interface Result {
        /** bwrap works; commands can run in a {@link Sandbox} on this host. */
        record Works(Sandbox.SandboxHost host) implements Result {
            public Works {
                Objects.requireNonNull(host, "host");
            }
        }

        /** It does not; {@code reason} is one line saying why and what to install or change. */
        record Fails(String reason) implements Result {
            public Fails {
                Objects.requireNonNull(reason, "reason");
            }
        }
    }

    private SandboxProbe() { }

    /** Probes with the agent's environment ({@code PATH} decides where bwrap and prlimit are looked for). */
    public static Result probe(Map<String, String> env) {
        Optional<Path> bwrap = find("bwrap", env);
        if (bwrap.isEmpty()) {
            return new Result.Fails("bwrap not found on PATH: apt-get install bubblewrap (dnf install bubblewrap on"
                    + " Fedora)");
        }
        String version = version(bwrap.get());
        Optional<Path> prlimit = system("prlimit", env);
        boolean root = isRoot();
        Optional<RootDrop> drop = Optional.empty();
        if (root) {
            Optional<Path> unshare = system("unshare", env);
            Optional<Path> perl = system("perl", env);
            Optional<Path> setpriv = system("setpriv", env);
            if (unshare.isEmpty() || perl.isEmpty() || setpriv.isEmpty()) {
                return new Result.Fails("the agent runs as root, and its commands must not: unshare, setpriv (util-linux)"
                        + " and perl are needed to run them as uid " + RootDrop.UID + ", and "
                        + (unshare.isEmpty() ? "unshare" : setpriv.isEmpty() ? "setpriv" : "perl") + " was not found:"
                        + " apt-get install util-linux perl-base, or run the agent as an ordinary user");
            }
            drop = Optional.of(new RootDrop(unshare.get(), perl.get(), setpriv.get()));
        }
        Optional<PidsCgroup> cgroup = PidsCgroup.find(Path.of("/proc"), "hmp-agent-probe-" + ProcessRunner.randomToken());
        Sandbox.SandboxHost host = new Sandbox.SandboxHost(bwrap.get(), version, true, prlimit, cgroup, root, drop);
        Trial first = trial(host);
        if (!first.ok() && first.error().contains("disable-userns")) {
            host = host.disablingUserns(false);
            first = trial(host);
        }
        if (!first.ok()) {
            return new Result.Fails("bwrap cannot make a sandbox " + (root ? "as uid " + RootDrop.UID + " " : "")
                    + "here (" + first.error() + "); unprivileged user namespaces may be off: sysctl"
                    + " kernel.unprivileged_userns_clone=1, or on Ubuntu 24.04 and later"
                    + " kernel.apparmor_restrict_unprivileged_userns=0");
        }
        return new Result.Works(host);
    }

    /**
     * For a root agent: whether {@code sandbox}'s file roots can be mapped to the unprivileged uid its commands run as
     * (a file system that cannot be idmapped, such as NFS, cannot); empty when they can, or when there is nothing to
     * map. One line saying why not, otherwise.
     */
    public static Optional<String> rootsMapped(Sandbox sandbox) {
        if (sandbox.host().drop().isEmpty()) return Optional.empty();
        ProcessSpec spec = new ProcessSpec(0, ":", Path.of("/"), java.time.Duration.ofSeconds(TRIAL_SECONDS));
        Run run = run(sandbox.argv(spec));
        sandbox.ended(spec);
        return run.code() == 0 ? Optional.empty() : Optional.of(run.firstLine());
    }

    /** {@code name} in the agent's {@code PATH}, only where it is part of the system (as the sandbox binds it). */
    private static Optional<Path> system(String name, Map<String, String> env) {
        return find(name, env).filter(p -> Sandbox.SYSTEM.stream().anyMatch(p::startsWith));
    }

    /** The executable {@code name} in the agent's {@code PATH} ({@code /usr/bin:/bin} when it has none). */
    static Optional<Path> find(String name, Map<String, String> env) {
        String path = env.getOrDefault("PATH", "");
        for (String dir : (path.isBlank() ? "/usr/bin:/bin" : path).split(File.pathSeparator)) {
            if (dir.isBlank() || !dir.startsWith("/")) continue;
            Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) return Optional.of(candidate);
        }
        return Optional.empty();
    }

    private record Trial(boolean ok, String error) { }

    /**
     * A trivial sandbox with the real options. For a root agent, a folder of root's is bound as a root would be, and
     * the trial writes a file in it as the unprivileged uid: it must be there afterwards, owned by root.
     */
    private static Trial trial(Sandbox.SandboxHost host) {
        Path dir = null;
        try {
            List<RootDrop.Bound> bound = new ArrayList<>();
            String command = ":";
            if (host.drop().isPresent()) {
                dir = Files.createTempDirectory("hmp-agent-probe-");
                bound.add(new RootDrop.Bound(dir, true));
                command = "test \"$(id -u)\" = " + RootDrop.UID + " || { echo \"still uid $(id -u)\"; exit 1; }; : > "
                        + dir + "/probe";
            }
            List<String> argv = new ArrayList<>(Sandbox.bwrap(host, bound));
            argv.addAll(Sandbox.namespaces(host, false));
            argv.addAll(Sandbox.system());
            argv.addAll(List.of("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"));
            argv.addAll(Sandbox.binds(host, bound, "--bind", "--ro-bind"));
            argv.addAll(List.of("--", ProcessRunner.SHELL, "-c", command));
            Run run = run(argv);
            if (run.code() != 0) return new Trial(false, run.firstLine());
            if (dir != null && !ownedByRoot(dir.resolve("probe"))) {
                return new Trial(false, "a file written in a mapped root was not left owned by root");
            }
            return new Trial(true, "");
        } catch (IOException e) {
            return new Trial(false, "could not make a folder to try it in: " + e.getMessage());
        } finally {
            if (dir != null) deleteTrial(dir);
        }
    }

    private static boolean ownedByRoot(Path file) {
        try {
            return Files.exists(file) && ((Integer) Files.getAttribute(file, "unix:uid")) == 0;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static void deleteTrial(Path dir) {
        try {
            Files.deleteIfExists(dir.resolve("probe"));
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // a folder left in the temp dir: harmless, and nothing to tell a person about
        }
    }

    private static String version(Path bwrap) {
        Run run = run(List.of(bwrap.toString(), "--version"));
        String line = run.firstLine().replaceFirst("(?i)^bubblewrap\\s*", "").strip();
        return run.code() == 0 && !line.isEmpty() ? line : "(version unknown)";
    }

    /** Whether this agent runs as root (uid 0): without a sandbox, its commands then have root's rights. */
    public static boolean runningAsRoot() {
        return isRoot();
    }

    private static boolean isRoot() {
        try {
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        } catch (IOException | RuntimeException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    private record Run(int code, String firstLine) { }

    private static Run run(List<String> argv) {
        try {
            Process p = new ProcessBuilder(argv).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            byte[] out;
            try (InputStream in = p.getInputStream()) {
                out = in.readNBytes(4096);
            }
            if (!p.waitFor(TRIAL_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Run(-1, "it did not finish within " + TRIAL_SECONDS + " s");
            }
            String text = new String(out, StandardCharsets.UTF_8).strip();
            String first = text.isEmpty() ? "exit " + p.exitValue() : text.lines().findFirst().orElse("");
            return new Run(p.exitValue(), first);
        } catch (IOException e) {
            return new Run(-1, "could not start it: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Run(-1, "interrupted");
        }
    }
}
