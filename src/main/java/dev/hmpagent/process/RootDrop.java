package dev.hmpagent.process;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How a sandboxed child of an agent running as root stops being root: root inside a user namespace is still the
 * host's uid 0 to every file and sysctl the sandbox can reach (a writable {@code /proc/sys/kernel/core_pattern}, a
 * readable {@code /etc/shadow}). So the child runs as an unprivileged uid ({@link #UID}, {@code nobody}) with no
 * capabilities and no_new_privs ({@code setpriv}), in an unprivileged bubblewrap; the file roots, and the files it
 * must read outside them, are idmapped in a private mount namespace so that their owner appears as that uid: it
 * works in them as their owner, and what it creates there is owned on disk by the roots' owner
 * ({@code sandbox/drop-root.pl}, run by perl before the drop).
 *
 * @param unshare util-linux {@code unshare}: the private mount namespace
 * @param perl    runs the helper that idmaps the bound paths (perl-base: on every Debian and Ubuntu system)
 * @param setpriv util-linux {@code setpriv}: the drop to {@link #UID}
 */
public record RootDrop(Path unshare, Path perl, Path setpriv) {
    /** The uid and gid a root agent's children run as: {@code nobody}. */
    public static final int UID = 65534;
    public static final int GID = 65534;

    /** The helper's source, run with {@code perl -e}. */
    static final String SCRIPT = load();

    public RootDrop {
        Objects.requireNonNull(unshare, "unshare");
        Objects.requireNonNull(perl, "perl");
        Objects.requireNonNull(setpriv, "setpriv");
    }

    /** A path bound into the sandbox from the host, read-write (a file root) or read-only. */
    public record Bound(Path path, boolean writable) {
        public Bound {
            Objects.requireNonNull(path, "path");
        }
    }

    /**
     * Where the idmapped clones are mounted, in the child's private mount namespace only (a tmpfs over it): the
     * {@code n}th bound path is {@code stage()/n}. {@code /dev/shm}, which every Linux has and no sandbox binds.
     */
    static Path stage() {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) ? shm : Path.of("/tmp");
    }

    /**
     * The argv that runs before bubblewrap: a private mount namespace, the helper that idmaps {@code bound} to
     * {@link #stage()}, then the drop to {@link #UID} with every capability gone and no_new_privs.
     */
    List<String> prefix(List<Bound> bound) {
        List<String> argv = new ArrayList<>(List.of(unshare.toString(), "--mount", "--propagation", "private",
                perl.toString(), "-e", SCRIPT, "--", Integer.toString(UID), Integer.toString(GID), stage().toString()));
        for (Bound b : bound) argv.add((b.writable() ? "rw:" : "ro:") + b.path());
        argv.addAll(List.of("--", setpriv.toString(), "--reuid=" + UID, "--regid=" + GID, "--clear-groups",
                "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs"));
        return argv;
    }

    /** The path bubblewrap binds for the {@code n}th bound path. */
    static String staged(int n) {
        return stage().resolve(Integer.toString(n)).toString();
    }

    private static String load() {
        try (InputStream in = RootDrop.class.getResourceAsStream("/sandbox/drop-root.pl")) {
            if (in == null) throw new IllegalStateException("sandbox/drop-root.pl is missing from the jar");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
