package dev.hmpagent.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A cgroup of the {@code pids} controller under the agent's own, where the agent may make one child per command
 * and cap its processes with {@code pids.max}: cgroup v1's {@code pids} hierarchy, or a cgroup v2 whose
 * {@code cgroup.subtree_control} already enables {@code pids} (a delegated subtree). Nothing is enabled or moved
 * here: where neither is writable there is no such cgroup, and {@link #find} says so.
 */
final class PidsCgroup {
    private final Path parent;
    private final boolean v1;

    private PidsCgroup(Path parent, boolean v1) {
        this.parent = Objects.requireNonNull(parent, "parent");
        this.v1 = v1;
    }

    /** The folder the per-command cgroups are made in. */
    Path parent() {
        return parent;
    }

    /**
     * The agent's pids cgroup, if it can make children there (tried once with a child it removes again).
     *
     * @param proc  {@code /proc} (its {@code self/cgroup} and {@code self/mountinfo} are read)
     * @param probe the name of the child to try
     */
    static Optional<PidsCgroup> find(Path proc, String probe) {
        try {
            List<String> cgroups = Files.readAllLines(proc.resolve("self/cgroup"), StandardCharsets.UTF_8);
            List<String> mounts = Files.readAllLines(proc.resolve("self/mountinfo"), StandardCharsets.UTF_8);
            Optional<PidsCgroup> v1 = v1(cgroups, mounts).map(d -> new PidsCgroup(d, true));
            return v1.or(() -> v2(cgroups, mounts).map(d -> new PidsCgroup(d, false))).filter(c -> c.works(probe));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();   // no /proc, or a layout we do not know: no cgroup, said by the caller
        }
    }

    /**
     * Makes the cgroup {@code name} capped at {@code max} processes; returns the file a process joins it by writing
     * {@code 0} (itself) to. In cgroup v1 that is {@code tasks}: the kernel moves the writing thread (a shell has one)
     * without the global lock a move by pid, or of a whole process through {@code cgroup.procs}, waits for (about 10
     * ms: one RCU grace period, measured by {@code scripts/bench sandbox}). cgroup v2 has only {@code cgroup.procs}.
     */
    Path create(String name, int max) throws IOException {
        Path dir = parent.resolve(name);
        Files.createDirectory(dir);
        try {
            Files.writeString(dir.resolve("pids.max"), Integer.toString(max));
        } catch (IOException e) {
            remove(name);
            throw e;
        }
        return dir.resolve(v1 ? "tasks" : "cgroup.procs");
    }

    /** Removes the cgroup {@code name}; false when it still holds a process or is gone. */
    boolean remove(String name) {
        try {
            return Files.deleteIfExists(parent.resolve(name));
        } catch (IOException e) {
            return false;
        }
    }

    private boolean works(String probe) {
        if (!Files.isDirectory(parent) || !Files.isWritable(parent)) return false;
        try {
            create(probe, 8);
            return remove(probe);
        } catch (IOException e) {
            return false;
        }
    }

    /** {@code 8:pids:/a/b} and a cgroup mount whose options name pids. */
    private static Optional<Path> v1(List<String> cgroups, List<String> mounts) {
        for (String line : cgroups) {
            String[] f = line.split(":", 3);
            if (f.length == 3 && List.of(f[1].split(",")).contains("pids")) {
                return mountOf(mounts, "cgroup", "pids").map(m -> within(m, f[2]));
            }
        }
        return Optional.empty();
    }

    /** {@code 0::/a/b} on a cgroup2 mount whose subtree already enables pids for the agent's children. */
    private static Optional<Path> v2(List<String> cgroups, List<String> mounts) {
        for (String line : cgroups) {
            if (line.startsWith("0::")) {
                Optional<Path> dir = mountOf(mounts, "cgroup2", "").map(m -> within(m, line.substring(3)));
                return dir.filter(PidsCgroup::enablesPids);
            }
        }
        return Optional.empty();
    }

    private static boolean enablesPids(Path dir) {
        try {
            return List.of(Files.readString(dir.resolve("cgroup.subtree_control")).strip().split("\\s+"))
                    .contains("pids");
        } catch (IOException e) {
            return false;
        }
    }

    /** A mount: its root inside the hierarchy and where it is mounted. */
    private record Mount(String root, Path point) { }

    /** From mountinfo: {@code id parent maj:min root point opts ... - fstype source superopts}. */
    private static Optional<Mount> mountOf(List<String> mounts, String fstype, String option) {
        for (String line : mounts) {
            int dash = line.indexOf(" - ");
            if (dash < 0) continue;
            String[] before = line.substring(0, dash).split(" ");
            String[] after = line.substring(dash + 3).split(" ");
            if (before.length < 5 || after.length < 3 || !after[0].equals(fstype)) continue;
            if (!option.isEmpty() && !List.of(after[2].split(",")).contains(option)) continue;
            return Optional.of(new Mount(unescape(before[3]), Path.of(unescape(before[4]))));
        }
        return Optional.empty();
    }

    private static Path within(Mount mount, String cgroupPath) {
        String relative = cgroupPath;
        if (!mount.root().equals("/") && relative.startsWith(mount.root())) {
            relative = relative.substring(mount.root().length());
        }
        relative = relative.replaceFirst("^/+", "");
        return relative.isEmpty() ? mount.point() : mount.point().resolve(relative);
    }

    /** mountinfo writes a space as {@code \040}, a tab, newline and backslash likewise. */
    private static String unescape(String s) {
        return s.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\");
    }
}
