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
 *
 * <p>A process caught in {@code exec} shows no environment yet (nor any command line): a grandchild a command left
 * running, looked at in that moment, carried no marker, and escaped every kill (12 looks in 300 on a loaded machine,
 * issue 36). Such a process is reported as {@linkplain Scan#unsure unsure}, for the caller to look at again.
 */
final class ProcFs {
    /** Set in {@code /proc/<pid>/stat}'s flags for a kernel thread, which has no environment either. */
    private static final long PF_KTHREAD = 0x00200000L;

    /**
     * What one look found: the pids whose environment holds one of the entries, and those it could not tell yet
     * (no environment and no command line, neither a zombie nor a kernel thread: a process in {@code exec}).
     */
    record Scan(Set<Long> marked, Set<Long> unsure) { }

    private final Path proc;

    ProcFs(Path proc) {
        this.proc = Objects.requireNonNull(proc, "proc");
    }

    /** Pids whose initial environment holds one of the entries exactly ({@code NAME=value}), and those unsure. */
    Scan scan(Set<String> entries) {
        Set<Long> pids = new HashSet<>();
        if (entries.isEmpty() || !Files.isDirectory(proc)) {
            return new Scan(Set.of(), Set.of());
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(proc, ProcFs::isPidDirectory)) {
            for (Path dir : dirs) pids.add(Long.parseLong(dir.getFileName().toString()));
        } catch (IOException e) {
            // /proc unreadable as a whole: degrade to what ProcessHandle.descendants() finds.
        }
        return scan(pids, entries);
    }

    /** {@link #scan(Set)} of these pids only (a second look at those unsure). */
    Scan scan(Set<Long> pids, Set<String> entries) {
        Set<Long> marked = new HashSet<>();
        Set<Long> unsure = new HashSet<>();
        for (long pid : pids) {
            Path dir = proc.resolve(Long.toString(pid));
            byte[] environ;
            try {
                environ = Files.readAllBytes(dir.resolve("environ"));
            } catch (IOException e) {
                continue; // gone meanwhile, or another user's process
            }
            if (hasAnyEntry(environ, entries)) marked.add(pid);
            else if (environ.length == 0 && inExec(dir)) unsure.add(pid);
        }
        return new Scan(marked, unsure);
    }

    /**
     * Not a zombie, not a kernel thread (the stat first: one read for each of a host's kernel threads, which an agent
     * running as root sees), and no command line: between {@code fork} and the end of {@code exec}.
     */
    private static boolean inExec(Path dir) {
        try {
            String[] after = statAfterName(dir);   // state, ppid, pgrp, session, tty_nr, tpgid, flags, ...
            if (after[0].equals("Z") || (Long.parseLong(after[6]) & PF_KTHREAD) != 0) return false;
            return Files.readAllBytes(dir.resolve("cmdline")).length == 0;
        } catch (IOException | RuntimeException e) {
            return false; // gone meanwhile, or a stat this code does not read
        }
    }

    /** True when the process has exited and only waits to be reaped (state Z in {@code /proc/<pid>/stat}). */
    boolean isZombie(long pid) {
        try {
            return statAfterName(proc.resolve(Long.toString(pid)))[0].equals("Z");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The fields of {@code /proc/<pid>/stat} after the name (which may hold spaces and parentheses), state first. */
    private static String[] statAfterName(Path dir) throws IOException {
        String stat = Files.readString(dir.resolve("stat"), StandardCharsets.UTF_8);
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    }

    private static boolean isPidDirectory(Path path) {
        String name = path.getFileName().toString();
        return !name.isEmpty() && name.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    private static boolean hasAnyEntry(byte[] bytes, Set<String> entries) {
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
