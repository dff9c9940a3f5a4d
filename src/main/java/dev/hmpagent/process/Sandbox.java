package dev.hmpagent.process;

import dev.hmpagent.policy.Canonical;
import dev.hmpagent.policy.ControlSurface;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * Runs each command inside bubblewrap ({@code bwrap}), so the operating system, not a reading of the command's text,
 * decides what it and everything it starts can reach: new user, PID, IPC, UTS and cgroup namespaces, its own
 * {@code /proc}, no network unless allowed, the system ({@code /usr}, {@code /bin}, {@code /lib*}, {@code /etc})
 * read-only, the file roots read-write at their own paths, a private {@code HOME} and {@code /tmp}, and nothing else
 * of the machine: not {@code $HOME}, not the database's folder, not the agent's files. A file it must read outside
 * the roots (the script of a {@code script_run}) is bound read-only for that command alone.
 *
 * <p>The control surface ({@link ControlSurface}) is never mounted: files of it under the read-only system are
 * masked where they exist, and a control file inside a read-write root cannot be made safe (a command could create
 * it there: an empty {@code agent.db.halt} halts the agent, an {@code agent.toml} widens the policy at the next
 * start), so {@link #plan} refuses such a layout.
 *
 * <p>Limits: the largest file one command writes ({@code prlimit --fsize}); its processes, by a cgroup's
 * {@code pids.max} where the agent may make one, else by {@code RLIMIT_NPROC} set inside the sandbox's own user
 * namespace, where the kernel counts only that namespace's processes (for root neither is enforced without a
 * cgroup). When a command's shell exits, the namespace's first process exits and the kernel kills every process
 * left in it, however it left the tree.
 */
public final class Sandbox implements Launcher {
    /** The system, bound read-only (or re-created as the symbolic links they are on merged-/usr systems). */
    static final List<Path> SYSTEM = Stream.of("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
            .map(Path::of).toList();

    /** What a sandboxed command may use. */
    public record Limits(boolean network, long maxFileBytes, int maxProcesses) {
        public Limits {
            if (maxFileBytes < 1 || maxProcesses < 1) throw new IllegalArgumentException("limits must be positive");
        }
    }

    /** Refused: the layout asked for cannot be confined safely. The message is one line saying what to change. */
    public static final class Unsafe extends RuntimeException {
        Unsafe(String message) {
            super(message);
        }
    }

    private final SandboxHost host;
    private final Limits limits;
    private final List<String> fixed;
    private final List<Path> roots;
    private final List<Path> asked;
    private final String token;

    private Sandbox(SandboxHost host, Limits limits, List<String> fixed, List<Path> roots, List<Path> asked,
                    String token) {
        this.host = host;
        this.limits = limits;
        this.fixed = List.copyOf(fixed);
        this.roots = List.copyOf(roots);
        this.asked = List.copyOf(asked);
        this.token = token;
    }

    /**
     * The sandbox for commands working in {@code roots}, never showing {@code surface}, with {@code home} (the
     * agent's {@code HOME}) private to each command.
     *
     * @throws Unsafe when a file or folder of the control surface lies inside a root
     */
    public static Sandbox plan(SandboxHost host, Limits limits, List<Path> roots, ControlSurface surface, Path home) {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(limits, "limits");
        List<Path> rootPaths = outermost(roots);
        List<Path> controlled = Stream.concat(surface.paths().stream(), surface.folders().stream())
                .map(Sandbox::canonical).distinct().toList();
        for (Path c : controlled) {
            for (Path r : rootPaths) {
                if (c.startsWith(r)) {
                    throw new Unsafe("sandbox: " + c + " (part of the agent's control surface) lies inside the file root "
                            + r + ", where a sandboxed command could create or change it; keep the database and config"
                            + " files out of files.roots (e.g. --db elsewhere), or set sandbox.mode = \"off\"");
                }
            }
        }
        List<String> args = new ArrayList<>(namespaces(host, limits.network()));
        args.addAll(system());
        args.addAll(List.of("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", "/var/tmp"));
        if (limits.network()) args.addAll(resolver());
        Path homeDir = canonical(home.toAbsolutePath());
        boolean privateHome = homeDir.getNameCount() > 0 && SYSTEM.stream().noneMatch(s -> homeDir.startsWith(canonical(s)));
        if (privateHome) args.addAll(List.of("--tmpfs", homeDir.toString()));
        for (Path c : controlled) {
            if (SYSTEM.stream().anyMatch(s -> c.startsWith(canonical(s))) && Files.exists(c, LinkOption.NOFOLLOW_LINKS)) {
                args.addAll(Files.isDirectory(c, LinkOption.NOFOLLOW_LINKS) ? List.of("--tmpfs", c.toString())
                        : List.of("--ro-bind", "/dev/null", c.toString()));
            }
        }
        args.addAll(List.of("--setenv", "HOME", privateHome ? homeDir.toString() : "/tmp", "--setenv", "TMPDIR", "/tmp"));
        return new Sandbox(host, limits, args, rootPaths, surface.askedBeforeWrites(), ProcessRunner.randomToken());
    }

    /**
     * The roots to bind, canonical: a root inside another is left out (the outer one's bind holds it). A root named
     * inside another whose real path leads elsewhere is refused: a command may have replaced it with a symbolic link
     * (to {@code /etc}, say) in an earlier run, and binding it would hand that target over read-write.
     */
    static List<Path> outermost(List<Path> roots) {
        List<Path> given = roots.stream().map(r -> r.toAbsolutePath().normalize()).distinct().toList();
        for (Path r : given) {
            Path real = canonical(r);
            for (Path other : given) {
                if (!other.equals(r) && r.startsWith(other) && !real.equals(r)) {
                    throw new Unsafe("sandbox: the file root " + r + " lies inside the root " + other + " but leads to "
                            + real + " (a symbolic link a command could have made): name " + real + " in files.roots"
                            + " if that is meant, or remove " + r);
                }
            }
        }
        List<Path> real = given.stream().map(Sandbox::canonical).distinct().toList();
        return real.stream().filter(r -> real.stream().noneMatch(o -> !o.equals(r) && r.startsWith(o))).toList();
    }

    /**
     * {@code path}, real, to bind for a server: refused when a symbolic link on the way lies in a file root (a
     * command could have made it, to lead the server's bind to {@code /root} or {@code /etc}).
     */
    String serverPath(Path path) {
        Path given = path.toAbsolutePath().normalize();
        Path real = canonical(given);
        if (!real.equals(given) && roots.stream().anyMatch(r -> given.startsWith(r) || real.startsWith(r))) {
            throw new Unsafe("sandbox: " + given + " leads to " + real + " through a symbolic link inside the file"
                    + " roots, which a command could have made: name the real path in agent.toml");
        }
        return real.toString();
    }

    /** The namespace and session options every sandbox of this host starts with (the probe uses them too). */
    static List<String> namespaces(SandboxHost host, boolean network) {
        List<String> args = new ArrayList<>(List.of("--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
                "--unshare-cgroup-try"));
        if (!network) args.add("--unshare-net");
        if (host.disableUserns()) args.add("--disable-userns");
        // as root, bwrap would leave the command every capability inside its user namespace (enough to unmount a mask)
        args.addAll(List.of("--cap-drop", "ALL", "--die-with-parent", "--new-session"));
        return args;
    }

    /**
     * The argv up to and including bwrap itself: for a root agent, first the drop to an unprivileged uid with
     * {@code bound} idmapped to it ({@link RootDrop}).
     */
    static List<String> bwrap(SandboxHost host, List<RootDrop.Bound> bound) {
        List<String> argv = new ArrayList<>();
        host.drop().ifPresent(drop -> argv.addAll(drop.prefix(bound)));
        argv.add(host.bwrap().toString());
        return argv;
    }

    /**
     * The bubblewrap options that bind each of {@code bound} at its own path ({@code writable} with the first option,
     * the rest with the second): from the host, or from the stage where a root agent's drop idmapped them.
     */
    static List<String> binds(SandboxHost host, List<RootDrop.Bound> bound, String writable, String readOnly) {
        List<String> args = new ArrayList<>();
        for (int n = 0; n < bound.size(); n++) {
            RootDrop.Bound b = bound.get(n);
            String from = host.drop().isPresent() ? RootDrop.staged(n) : b.path().toString();
            args.addAll(List.of(b.writable() ? writable : readOnly, from, b.path().toString()));
        }
        return args;
    }

    /**
     * Each file a person must approve writes to (AGENTS.md) that exists in a root, bound read-only over itself, from
     * the last root that holds it (the one whose bind is on top): no program can write, replace or remove it, however
     * it names it. One that does not exist yet is left to the shell policy's reading of the command.
     */
    private List<String> guardAsked() {
        List<String> args = new ArrayList<>();
        for (Path file : asked) {
            if (!Files.isRegularFile(file)) continue;
            Path real = canonical(file);
            for (int n = roots.size() - 1; n >= 0; n--) {
                Path root = roots.get(n);
                if (!real.startsWith(root)) continue;
                String from = host.drop().isPresent()
                        ? RootDrop.staged(n) + "/" + root.relativize(real) : real.toString();
                args.addAll(List.of("--ro-bind-try", from, real.toString()));
                break;
            }
        }
        return args;
    }

    /** The system read-only: each tree bound, or re-made as the symbolic link it is. */
    static List<String> system() {
        List<String> args = new ArrayList<>();
        for (Path p : SYSTEM) {
            try {
                if (Files.isSymbolicLink(p)) {
                    args.addAll(List.of("--symlink", Files.readSymbolicLink(p).toString(), p.toString()));
                } else if (Files.isDirectory(p)) {
                    args.addAll(List.of("--ro-bind", p.toString(), p.toString()));
                }
            } catch (IOException e) {
                // unreadable: left out, as if the machine had no such tree
            }
        }
        return args;
    }

    /** With the network on, the resolver's file where {@code /etc/resolv.conf} points outside {@code /etc}. */
    private static List<String> resolver() {
        Path conf = Path.of("/etc/resolv.conf");
        if (!Files.isSymbolicLink(conf)) return List.of();
        try {
            Path target = conf.toRealPath();
            return List.of("--ro-bind-try", target.toString(), target.toString());
        } catch (IOException e) {
            return List.of();
        }
    }

    /** The host this sandbox runs on (its bwrap, its user namespaces). */
    SandboxHost host() {
        return host;
    }

    @Override
    public List<String> argv(ProcessSpec spec) {
        List<String> argv = new ArrayList<>();
        if (host.cgroup().isPresent()) {
            try {
                Path join = host.cgroup().get().create(cgroupName(spec), limits.maxProcesses());
                // the shell joins the cgroup (0: itself) before it becomes bwrap: nothing it starts is outside the cap
                argv.addAll(List.of(ProcessRunner.SHELL, "-c", "echo 0 > \"$0\" && exec \"$@\"", join.toString()));
            } catch (IOException e) {
                throw new UncheckedIOException("could not make the cgroup that caps its processes ("
                        + e.getMessage() + ")", e);
            }
        }
        Set<Path> readOnly = new LinkedHashSet<>();
        for (Path f : spec.readOnlyFiles()) readOnly.add(canonical(f.toAbsolutePath()));
        List<RootDrop.Bound> bound = new ArrayList<>();
        for (Path r : roots) bound.add(new RootDrop.Bound(r, true));
        for (Path f : readOnly) bound.add(new RootDrop.Bound(f, false));
        argv.addAll(bwrap(host, bound));
        argv.addAll(fixed);
        argv.addAll(binds(host, bound, "--bind-try", "--ro-bind"));
        argv.addAll(guardAsked());
        argv.addAll(List.of("--chdir", canonical(spec.workingDirectory().toAbsolutePath()).toString(), "--"));
        host.prlimit().ifPresent(prlimit -> {
            argv.addAll(List.of(prlimit.toString(), "--fsize=" + limits.maxFileBytes()));
            if (capsByRlimit()) argv.add("--nproc=" + limits.maxProcesses());
            argv.add("--");
        });
        argv.addAll(InnerShell.argv(spec.command(), "hmp-agent-" + token));
        return argv;
    }

    /** What the sandbox's first shell said (its lines taken out), or that the sandbox failed before it ran. */
    @Override
    public Exit exited(int code, String output) {
        return InnerShell.exited("hmp-agent-" + token, code, output);
    }

    @Override
    public String shown(String output) {
        return InnerShell.shown("hmp-agent-" + token, output);
    }

    @Override
    public boolean confines() {
        return true;
    }

    @Override
    public void ended(ProcessSpec spec) {
        if (host.cgroup().isEmpty()) return;
        // the tree is dead; a last task may still be leaving the cgroup for a moment
        for (int i = 0; i < 50 && !host.cgroup().get().remove(cgroupName(spec)); i++) {
            if (!Files.exists(host.cgroup().get().parent().resolve(cgroupName(spec)))) return;
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    @Override
    public String pidNote() {
        return "host pid; it is the sandbox: killing it ends the command and everything it started";
    }

    /** One line: what a sandboxed command can and cannot do here. */
    public String describe() {
        return "bubblewrap " + host.version() + ": each command sees only the file roots (read-write) and the system"
                + " (read-only), " + (limits.network() ? "with" : "no") + " network, files up to "
                + bytes(limits.maxFileBytes()) + ", " + processCap() + (host.drop().isPresent() ? ", as uid "
                + RootDrop.UID + " (nobody), not root, with the file roots mapped to their owner" : "");
    }

    /** How the processes of one command are capped, or that they are not. */
    String processCap() {
        if (host.cgroup().isPresent()) return "at most " + limits.maxProcesses() + " processes (cgroup pids.max)";
        if (capsByRlimit()) return "at most " + limits.maxProcesses() + " processes (a limit inside its user namespace)";
        return "processes not capped (running as root with no pids cgroup the agent may make)";
    }

    private boolean capsByRlimit() {
        return host.cgroup().isEmpty() && (!host.root() || host.drop().isPresent()) && host.prlimit().isPresent();
    }

    private String cgroupName(ProcessSpec spec) {
        return "hmp-agent-" + token + "-" + spec.id();
    }

    static String bytes(long n) {
        if (n % (1024L * 1024 * 1024) == 0) return n / (1024L * 1024 * 1024) + " GiB";
        if (n % (1024L * 1024) == 0) return n / (1024L * 1024) + " MiB";
        if (n % 1024 == 0) return n / 1024 + " KiB";
        return String.format(Locale.ROOT, "%,d bytes", n);
    }

    private static Path canonical(Path p) {
        return Canonical.of(p.toAbsolutePath().normalize()).path();
    }

    /** The host's sandbox tools, as {@link SandboxProbe} found them working. */
    public record SandboxHost(Path bwrap, String version, boolean disableUserns, Optional<Path> prlimit,
                              Optional<PidsCgroup> cgroup, boolean root, Optional<RootDrop> drop) {
        public SandboxHost {
            Objects.requireNonNull(bwrap, "bwrap");
            Objects.requireNonNull(version, "version");
            Objects.requireNonNull(prlimit, "prlimit");
            Objects.requireNonNull(cgroup, "cgroup");
            Objects.requireNonNull(drop, "drop");
            if (drop.isPresent() && !root) throw new IllegalArgumentException("only a root agent drops to another uid");
        }

        /** The same host with its user namespaces' {@code --disable-userns} as given. */
        SandboxHost disablingUserns(boolean disable) {
            return new SandboxHost(bwrap, version, disable, prlimit, cgroup, root, drop);
        }
    }
}
