package dev.hmpagent.commands.catalogue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Keeps the person's standing instructions (AGENTS.md in a file root) as the person left them, whatever a command
 * does: the sandbox binds an existing one read-only, but a command can make one where there was none, rename the
 * folder that holds it and make another, or replace a symbolic link. So when the first of the commands running at
 * once starts, what each file is (absent, a link and its target, or its bytes) is taken as the person's; when a
 * command ends and a file is not that any more, what is there now is moved aside under a name no command can guess
 * ({@code AGENTS.md.made-by-command-ID-RANDOM}, nothing lost) and the person's version put back, and the command's
 * row says so. A person's own edit while a command runs is moved aside the same way (said in the row); between
 * commands it is simply taken as theirs.
 */
final class InstructionsGuard {
    /** What one file is: absent ({@code bytes} and {@code target} null), a symbolic link, or a file's bytes. */
    private record State(byte[] bytes, Path target, boolean other) {
        static final State ABSENT = new State(null, null, false);

        boolean same(State o) {
            return Arrays.equals(bytes, o.bytes) && Objects.equals(target, o.target) && other == o.other;
        }
    }

    /** The largest file kept to put back; a bigger one is still compared (by its bytes) up to this. */
    private static final int MAX_BYTES = 1 << 20;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Supplier<List<Path>> files;
    private Map<Path, State> trusted = Map.of();
    private int running;

    /** @param files the files to keep, absolute (they may not exist) */
    InstructionsGuard(Supplier<List<Path>> files) {
        this.files = Objects.requireNonNull(files, "files");
    }

    /** A command starts: with none running, what the files are now is the person's. */
    synchronized void started() {
        if (running++ == 0) trusted = read();
    }

    /** A command that was to start did not: nothing of it to compare. */
    synchronized void abandoned() {
        running = Math.max(0, running - 1);
    }

    /** A command ends: one line for each file it changed, put back as the person had it. */
    synchronized List<String> ended(long commandId) {
        running = Math.max(0, running - 1);
        List<String> lines = new ArrayList<>();
        Map<Path, State> now = read();
        for (Map.Entry<Path, State> e : trusted.entrySet()) {
            State is = now.getOrDefault(e.getKey(), State.ABSENT);
            if (!is.same(e.getValue())) lines.add(restore(e.getKey(), e.getValue(), is, commandId));
        }
        return lines;
    }

    private Map<Path, State> read() {
        Map<Path, State> out = new LinkedHashMap<>();
        for (Path f : files.get()) out.put(f, state(f));
        return out;
    }

    private static State state(Path f) {
        try {
            if (Files.isSymbolicLink(f)) return new State(null, Files.readSymbolicLink(f), false);
            if (!Files.exists(f, LinkOption.NOFOLLOW_LINKS)) return State.ABSENT;
            if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS) || Files.size(f) > MAX_BYTES) {
                return new State(null, null, true);
            }
            return new State(Files.readAllBytes(f), null, false);
        } catch (IOException e) {
            return new State(null, null, true);
        }
    }

    private static String restore(Path f, State was, State is, long commandId) {
        String aside = f.getFileName() + ".made-by-command-" + commandId + "-"
                + HexFormat.of().formatHex(RANDOM.generateSeed(3));
        try {
            if (is != State.ABSENT) Files.move(f, f.resolveSibling(aside), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            if (was.target() != null) Files.createSymbolicLink(f, was.target());
            else if (was.bytes() != null) Files.write(f, was.bytes());
            String kept = is == State.ABSENT ? "" : ": what it made is in " + aside;
            return "this command changed " + f + ", the person's standing instructions, which only a person may"
                    + " write; it is back as the person left it" + kept;
        } catch (IOException | UnsupportedOperationException e) {
            return "this command changed " + f + ", the person's standing instructions, and it could not be put back ("
                    + e.getMessage() + "): tell the person";
        }
    }
}
