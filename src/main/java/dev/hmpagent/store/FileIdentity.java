package dev.hmpagent.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Which file a path named when the agent opened it: its file key (device and inode on Unix). A file deleted
 * ({@code rm agent.db agent.db-wal agent.db-shm}) or replaced under a running agent keeps its open connections
 * working on the unlinked inode, and everything written through them is lost; {@link #change()} notices it by
 * asking the path again. One {@code stat}: cheap enough for the heartbeat's once a second. Where the file
 * system gives no file key, no change is ever reported.
 */
public final class FileIdentity {
    private final Path path;
    private final Object key;

    private FileIdentity(Path path, Object key) {
        this.path = path;
        this.key = key;
    }

    /** The identity of the file at {@code path} now (it must exist: the agent has just opened it). */
    public static FileIdentity of(Path path) {
        Path absolute = Objects.requireNonNull(path, "path").toAbsolutePath();
        try {
            return new FileIdentity(absolute, key(absolute));
        } catch (IOException e) {
            throw new StoreException(StoreException.Kind.IO, "cannot read what file " + absolute + " is ("
                    + e.getMessage() + "): check that it and its directory are accessible, or choose another --db", e);
        }
    }

    public Path path() { return path; }

    /**
     * Empty while the path still names the file that was opened; otherwise what became of it, as words that fit
     * in a sentence ("was deleted", "was replaced by another file").
     */
    public Optional<String> change() {
        if (key == null) return Optional.empty();
        try {
            return key.equals(key(path)) ? Optional.empty() : Optional.of("was replaced by another file");
        } catch (NoSuchFileException e) {
            return Optional.of("was deleted");
        } catch (IOException e) {
            // the directory cannot be read now (permissions, a flaky mount): not proof the file is gone
            return Optional.empty();
        }
    }

    /**
     * The processes (of this user; Linux only, else none) that still have a file open that was at {@code db} and
     * has been deleted or replaced since: what {@code /proc/PID/fd} shows as "{@code db (deleted)}". For
     * {@code agent status}, which otherwise sees no runner in a new file or no file at all. Reads every
     * process's descriptors: call it only when no runner is seen.
     */
    public static List<Long> pidsHoldingDeleted(Path db) {
        String wanted = db.toAbsolutePath() + " (deleted)";
        List<Long> pids = new ArrayList<>();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), p -> p.getFileName().toString()
                .chars().allMatch(Character::isDigit))) {
            for (Path proc : procs) {
                if (holds(proc.resolve("fd"), wanted)) pids.add(Long.parseLong(proc.getFileName().toString()));
            }
        } catch (IOException | UncheckedIOException e) {
            // no /proc here: nothing can be told
        }
        return pids;
    }

    private static boolean holds(Path fds, String wanted) {
        try (DirectoryStream<Path> links = Files.newDirectoryStream(fds)) {
            for (Path link : links) {
                try {
                    if (Files.readSymbolicLink(link).toString().equals(wanted)) return true;
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // another user's process, or one that ended meanwhile
        }
        return false;
    }

    private static Object key(Path path) throws IOException {
        return Files.readAttributes(path, BasicFileAttributes.class).fileKey();   // through a symlink: the data is in its target
    }
}
