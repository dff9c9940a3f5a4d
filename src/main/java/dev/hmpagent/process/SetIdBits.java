package dev.hmpagent.process;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Takes the set-user-ID and set-group-ID bits off the files a command set them on in the file roots. A sandbox mounts
 * the roots nosuid, so inside it they do nothing; but on the host such a file runs as its owner, and the files a root
 * agent's command makes are owned by root (the roots are idmapped to it): {@code cp /bin/sh x; chmod 6755 x} would
 * leave a root shell for any local user. After each command, {@code find} lists the regular files under the roots
 * with either bit whose status changed since the command started; each is opened without following a link and its
 * permissions set again without those bits. Folders keep theirs (a setgid folder is a common, harmless layout).
 */
public final class SetIdBits {
    private final List<Path> roots;
    private final Path find;

    public SetIdBits(List<Path> roots, Path find) {
        this.roots = List.copyOf(Objects.requireNonNull(roots, "roots"));
        this.find = Objects.requireNonNull(find, "find");
    }

    /** With {@code /usr/bin/find}, where the system has it; else none is looked for. */
    public static SetIdBits in(List<Path> roots) {
        return new SetIdBits(roots, Path.of("/usr/bin/find"));
    }

    /**
     * The files under the roots whose set-ID bits were set since {@code since} (a file made for the purpose, whose
     * time is the command's start), each cleared; the paths cleared, for the command's row.
     */
    public List<Path> clearSince(Path since) {
        if (roots.isEmpty() || !Files.isExecutable(find) || !Files.exists(since)) return List.of();
        List<String> argv = new ArrayList<>(List.of(find.toString()));
        roots.forEach(r -> argv.add(r.toString()));
        argv.addAll(List.of("-xdev", "-type", "f", "-perm", "/6000", "-cnewer", since.toString(), "-print0"));
        List<Path> cleared = new ArrayList<>();
        for (String name : list(argv)) {
            Path file = Path.of(name);
            try {
                PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class,
                        LinkOption.NOFOLLOW_LINKS);
                // the permission set has no set-ID bits: writing it back clears them
                view.setPermissions(view.readAttributes().permissions());
                cleared.add(file);
            } catch (IOException | UnsupportedOperationException e) {
                // gone or replaced since find saw it: nothing of it to clear
            }
        }
        return cleared;
    }

    /** A file whose modification time is now: the start of a command, for {@link #clearSince}. */
    public static Path stamp() throws IOException {
        Path stamp = Files.createTempFile("hmp-agent-command-", ".start");
        Files.setLastModifiedTime(stamp, FileTime.fromMillis(System.currentTimeMillis() - 1000));
        return stamp;
    }

    private static List<String> list(List<String> argv) {
        try {
            Process p = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out;
            try (InputStream in = p.getInputStream()) {
                out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (!p.waitFor(60, TimeUnit.SECONDS)) p.destroyForcibly();
            return out.isEmpty() ? List.of() : List.of(out.split("\0"));
        } catch (IOException e) {
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }
}
