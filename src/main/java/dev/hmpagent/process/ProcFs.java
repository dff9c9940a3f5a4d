package dev.hmpagent.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * What {@code /proc} says about processes that {@link ProcessHandle} does not: which carry a marker
 * in their environment (how a grandchild that left the tree by a double fork or {@code setsid} is
 * still found), and which are zombies (dead, but {@link ProcessHandle#isAlive()} says alive until
 * someone reaps them, which in a container may be never). Where there is no {@code /proc} (not
 * Linux) it finds no marked process and no zombie; processes of other users are skipped.
 */
final class ProcFs {
    private final Path proc;

    ProcFs(Path proc) {
        this.proc = Objects.requireNonNull(proc, "proc");
    }

    /** Pids whose initial environment holds one of the entries exactly ({@code NAME=value}). */
    Set<Long> pidsWith(Set<String> entries) {
        Set<Long> pids = new HashSet<>();
        if (entries.isEmpty() || !Files.isDirectory(proc)) {
            return pids;
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(proc, ProcFs::isPidDirectory)) {
            for (Path dir : dirs) {
                if (hasAnyEntry(dir.resolve("environ"), entries)) {
                    pids.add(Long.parseLong(dir.getFileName().toString()));
                }
            }
        } catch (IOException e) {
            // /proc unreadable as a whole: degrade to what ProcessHandle.descendants() finds.
        }
        return pids;
    }

    /** True when the process has exited and only waits to be reaped (state Z in {@code /proc/<pid>/stat}). */
    boolean isZombie(long pid) {
        String stat;
        try {
            stat = Files.readString(proc.resolve(Long.toString(pid)).resolve("stat"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return false;
        }
        int afterName = stat.lastIndexOf(')'); // the name may hold spaces and parentheses
        return afterName >= 0 && stat.length() > afterName + 2 && stat.charAt(afterName + 2) == 'Z';
    }

    private static boolean isPidDirectory(Path path) {
        String name = path.getFileName().toString();
        return !name.isEmpty() && name.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    private static boolean hasAnyEntry(Path environ, Set<String> entries) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(environ);
        } catch (IOException e) {
            return false; // gone meanwhile, or another user's process
        }
        int start = 0;
        for (int i = 0; i <= bytes.length; i++) {
            if (i == bytes.length || bytes[i] == 0) {
                String entry = new String(bytes, start, i - start, StandardCharsets.UTF_8);
                if (entries.contains(entry)) {
                    return true;
                }
                start = i + 1;
            }
        }
        return false;
    }
}
