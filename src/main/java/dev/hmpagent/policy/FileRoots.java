package dev.hmpagent.policy;

import dev.hmpagent.text.Text;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The directories the LLM's file commands may use, and the only way they touch files. A path is
 * resolved ({@code ~}, relative to the first root, {@code ..}, symbolic links of the part that exists)
 * and refused when it leads outside every root, to a control-surface file (even inside a root) or, for
 * a write, into {@code .git}. The helpers then open the canonical path without following a link in its
 * last element and check again after opening that the path still has no link in it and is the same
 * file, so a link swapped in between the check and the open cannot lead them out.
 *
 * <p>What remains: a directory swapped for a link and back again between the open and the second check
 * would go unseen (Java cannot open relative to a directory handle portably); the LLM would need to win
 * that race with a shell command the policy allowed.
 */
public final class FileRoots {
    /** What the caller means to do with the path. */
    public enum Access { READ, WRITE, LIST }

    /** A file's content as text (invalid UTF-8 replaced). */
    public record FileText(Path path, String text, long bytes) {
        public FileText {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(text, "text");
        }
    }

    /** What {@link #write} did. */
    public record Written(Path path, long bytes, boolean created) {
        public Written {
            Objects.requireNonNull(path, "path");
        }
    }

    public enum EntryKind { FILE, DIRECTORY, LINK, OTHER }

    public record Entry(String name, EntryKind kind, long size) {
        public Entry {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(kind, "kind");
        }
    }

    /** A directory's entries sorted by name, the first {@code maxEntries} of {@code total}. */
    public record Listing(Path dir, List<Entry> entries, int total) {
        public Listing {
            Objects.requireNonNull(dir, "dir");
            entries = List.copyOf(entries);
        }

        public boolean truncated() {
            return total > entries.size();
        }
    }

    private static final int SHOWN_PATH = 120;

    private final List<Path> roots;
    private final ControlSurface controlSurface;
    private final Path home;
    private final boolean createFirstRoot;
    private final FileOpener opener;

    /** @param roots the directories, first one first (relative paths resolve against it); none created */
    public FileRoots(List<Path> roots, ControlSurface controlSurface, Path home) {
        this(roots, controlSurface, home, false, () -> { });
    }

    /** @param beforeOpen runs between the check and the open; tests swap links there */
    FileRoots(List<Path> roots, ControlSurface controlSurface, Path home, boolean createFirstRoot, Runnable beforeOpen) {
        if (Objects.requireNonNull(roots, "roots").isEmpty()) {
            throw new IllegalArgumentException("at least one root is needed");
        }
        this.roots = roots.stream().map(r -> r.toAbsolutePath().normalize()).toList();
        this.controlSurface = Objects.requireNonNull(controlSurface, "controlSurface");
        this.home = Objects.requireNonNull(home, "home").toAbsolutePath();
        this.createFirstRoot = createFirstRoot;
        this.opener = new FileOpener(controlSurface, Objects.requireNonNull(beforeOpen, "beforeOpen"), this::stillInside);
    }

    /**
     * The configured roots ({@code files.roots}), or when there are none {@code workspace/} beside the
     * database, created on first use.
     */
    public static FileRoots forDatabase(List<Path> configuredRoots, Path db, ControlSurface controlSurface) {
        Path home = Path.of(System.getProperty("user.home", "/"));
        if (!configuredRoots.isEmpty()) {
            return new FileRoots(configuredRoots, controlSurface, home);
        }
        Path workspace = db.toAbsolutePath().normalize().resolveSibling("workspace");
        return new FileRoots(List.of(workspace), controlSurface, home, true, () -> { });
    }

    /** The roots as absolute paths, first one first. */
    public List<Path> roots() {
        return roots;
    }

    /** The canonical path {@code userPath} names, if {@code access} to it is allowed. */
    public FileResult<Path> resolve(String userPath, Access access) {
        Objects.requireNonNull(access, "access");
        if (userPath == null || userPath.isBlank()) {
            return FileResult.refused(FileResult.EINVAL, "the path is empty");
        }
        if (userPath.indexOf('\0') >= 0) {
            return FileResult.refused(FileResult.EINVAL, "the path contains a NUL character");
        }
        Path given;
        try {
            given = expandHome(userPath);
        } catch (InvalidPathException e) {
            return FileResult.refused(FileResult.EINVAL, shown(userPath) + " is not a valid path");
        }
        if (given == null) {
            return FileResult.refused(FileResult.EINVAL, shown(userPath) + ": only ~ and ~/… are understood, not ~user");
        }
        Path absolute = given.isAbsolute() ? given : firstRoot().resolve(given);
        return check(userPath, absolute, access);
    }

    /**
     * The file a write to {@code userPath} would reach, when it is one a person must approve writes to (AGENTS.md);
     * empty for any other path, and for one the write would refuse anyway.
     */
    public Optional<Path> askedBeforeWrite(String userPath) {
        FileResult<Path> path = resolve(userPath, Access.WRITE);
        return path.ok() ? controlSurface.askedFor(path.value()) : Optional.empty();
    }

    /** The files a person must approve writes to (AGENTS.md) that lie in a root, whether they exist or not. */
    public List<Path> askedInRoots() {
        return controlSurface.askedBeforeWrites().stream()
                .filter(p -> roots().stream().anyMatch(r -> p.startsWith(r) || Canonical.of(p).path().startsWith(r)))
                .toList();
    }

    /** Reads a file of at most {@code maxBytes} bytes ({@code files.max_read_bytes}). */
    public FileResult<FileText> openForRead(String userPath, long maxBytes) {
        FileResult<Path> path = resolve(userPath, Access.READ);
        return path.ok() ? opener.read(userPath, path.value(), maxBytes) : path.refusal();
    }

    /** Reads {@code resolved} (from {@link #resolve}), checking it again as it is opened. */
    public FileResult<FileText> openForRead(Path resolved, long maxBytes) {
        FileResult<Path> path = recheck(resolved, Access.READ);
        return path.ok() ? opener.read(resolved.toString(), path.value(), maxBytes) : path.refusal();
    }

    /** Writes {@code content} as UTF-8 (at most {@code maxBytes}, {@code files.max_write_bytes}), creating parent directories. */
    public FileResult<Written> write(String userPath, String content, long maxBytes) {
        Optional<FileResult<Written>> tooBig = tooBig(content, maxBytes);
        if (tooBig.isPresent()) {
            return tooBig.get();
        }
        FileResult<Path> path = resolve(userPath, Access.WRITE);
        return path.ok() ? opener.store(userPath, path.value(), content) : path.refusal();
    }

    /** Writes to {@code resolved} (from {@link #resolve}), checking it again as it is opened. */
    public FileResult<Written> write(Path resolved, String content, long maxBytes) {
        Optional<FileResult<Written>> tooBig = tooBig(content, maxBytes);
        if (tooBig.isPresent()) {
            return tooBig.get();
        }
        FileResult<Path> path = recheck(resolved, Access.WRITE);
        return path.ok() ? opener.store(resolved.toString(), path.value(), content) : path.refusal();
    }

    /** The entries of a directory, at most {@code maxEntries} of them; control-surface files are left out. */
    public FileResult<Listing> list(String userDir, int maxEntries) {
        FileResult<Path> path = resolve(userDir, Access.LIST);
        return path.ok() ? opener.listing(userDir, path.value(), maxEntries) : path.refusal();
    }

    /** Lists {@code resolved} (from {@link #resolve}), checking it again as it is opened. */
    public FileResult<Listing> list(Path resolved, int maxEntries) {
        FileResult<Path> path = recheck(resolved, Access.LIST);
        return path.ok() ? opener.listing(resolved.toString(), path.value(), maxEntries) : path.refusal();
    }

    // ---- the check ----

    private FileResult<Path> recheck(Path resolved, Access access) {
        if (!Objects.requireNonNull(resolved, "resolved").isAbsolute()) {
            return FileResult.refused(FileResult.EINVAL, shown(resolved.toString()) + " is not a resolved (absolute) path");
        }
        return check(resolved.toString(), resolved, access);
    }

    private FileResult<Path> check(String userPath, Path absolute, Access access) {
        Canonical canonical = Canonical.of(absolute);
        if (!canonical.problem().isEmpty()) {
            return FileResult.refused(FileResult.EPERM, shown(userPath) + ": " + clip(canonical.problem()));
        }
        Path path = canonical.path();
        List<Path> realRoots = realRoots();
        if (realRoots.isEmpty()) {
            return FileResult.refused(FileResult.ENOENT, "no file root exists (" + rootList() + ")");
        }
        Optional<Path> root = realRoots.stream().filter(path::startsWith).findFirst();
        if (root.isEmpty()) {
            return FileResult.refused(FileResult.EPERM, shown(userPath) + " is " + clip(path.toString())
                    + ", outside the file roots (" + rootList() + ")");
        }
        if (controlSurface.covering(path).isPresent()) {
            return FileResult.refused(FileResult.EPERM, shown(userPath) + " is " + clip(path.toString())
                    + ", part of the agent's control surface (its database, config or history)");
        }
        if (access == Access.WRITE && inGitDirectory(root.get().relativize(path))) {
            return FileResult.refused(FileResult.EPERM, shown(userPath)
                    + " is inside .git, whose hooks and config the next git command would run");
        }
        return kindCheck(userPath, path, canonical.exists(), access);
    }

    private FileResult<Path> kindCheck(String userPath, Path path, boolean exists, Access access) {
        if (!exists) {
            return access == Access.WRITE ? FileResult.of(path)
                    : FileResult.refused(FileResult.ENOENT, shown(userPath) + " does not exist");
        }
        boolean directory = Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS);
        boolean regular = Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS);
        if (access == Access.LIST) {
            return directory ? FileResult.of(path)
                    : FileResult.refused(FileResult.EINVAL, shown(userPath) + " is not a directory");
        }
        if (directory) {
            return FileResult.refused(FileResult.EISDIR, shown(userPath) + " is a directory"
                    + (access == Access.READ ? "; list it instead" : ""));
        }
        return regular ? FileResult.of(path)
                : FileResult.refused(FileResult.EINVAL, shown(userPath) + " is not a regular file");
    }

    /** After opening: the path still resolves to itself (no link swapped in) and is inside a root, off the surface. */
    private boolean stillInside(Path path) {
        Canonical now = Canonical.of(path);
        if (!now.path().equals(path) || !now.exists()) {
            return false;
        }
        return realRoots().stream().anyMatch(path::startsWith) && controlSurface.covering(path).isEmpty();
    }

    // ---- small parts ----

    private Path firstRoot() {
        Path first = roots.get(0);
        if (createFirstRoot && !Files.exists(first, LinkOption.NOFOLLOW_LINKS)) {
            try {
                Files.createDirectories(first);
            } catch (IOException e) {
                // the check then reports that no root exists
            }
        }
        return first;
    }

    private List<Path> realRoots() {
        firstRoot();
        List<Path> real = new ArrayList<>();
        for (Path root : roots) {
            try {
                real.add(root.toRealPath());
            } catch (IOException e) {
                // a missing root holds nothing
            }
        }
        return real;
    }

    private String rootList() {
        return roots.stream().map(Path::toString).collect(Collectors.joining(", "));
    }

    /** {@code ~} and {@code ~/x} against the home directory; null for {@code ~user}. */
    private Path expandHome(String userPath) {
        if (userPath.equals("~")) {
            return home;
        }
        if (userPath.startsWith("~/")) {
            return home.resolve(userPath.substring(2));
        }
        return userPath.startsWith("~") ? null : Path.of(userPath);
    }

    private static boolean inGitDirectory(Path relative) {
        for (Path element : relative) {
            if (element.toString().equals(".git")) {
                return true;
            }
        }
        return false;
    }

    private static <T> Optional<FileResult<T>> tooBig(String content, long maxBytes) {
        long bytes = content.getBytes(StandardCharsets.UTF_8).length;
        if (bytes <= maxBytes) {
            return Optional.empty();
        }
        return Optional.of(FileResult.refused(FileResult.EFBIG, "the content is " + bytes
                + " bytes, over the write cap of " + maxBytes + " bytes (files.max_write_bytes)"));
    }

    /** A path as a reason shows it: quoted, on one line, cut at 120 characters. */
    static String shown(String userPath) {
        return "\"" + clip(userPath) + "\"";
    }

    static String clip(String text) {
        String line = text.replace("\n", "\\n");
        return Text.cut(line, SHOWN_PATH);
    }
}
