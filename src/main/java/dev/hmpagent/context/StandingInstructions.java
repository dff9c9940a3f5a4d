package dev.hmpagent.context;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The person's standing instructions: {@code AGENTS.md} in the agent's working directory, as Codex CLI and others
 * read it, at most {@link #CAP_BYTES} of it. Read once at start, so context 0 stays the same for the whole run (a
 * change applies at the next start); a file over the cap is cut at a character boundary, and {@link #cutLine()}
 * says how many bytes were kept of how many.
 *
 * @param file  the file looked for, absolute ({@code <dir>/AGENTS.md}), whether it exists or not
 * @param found whether it was there and could be read
 * @param text  what of it is kept ("" when not found)
 * @param bytes its size in bytes (0 when not found)
 * @param kept  how many of those bytes {@code text} holds
 * @param problem why an existing file could not be read ("" when it could, or when there is none)
 */
public record StandingInstructions(Path file, boolean found, String text, long bytes, int kept, String problem) {
    /** The file's name, looked for in the working directory only. */
    public static final String FILE_NAME = "AGENTS.md";
    /** The most of it context 0 holds: 32 KiB, as Codex CLI's default. */
    public static final int CAP_BYTES = 32 * 1024;

    public StandingInstructions {
        file = Objects.requireNonNull(file, "file").toAbsolutePath().normalize();
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(problem, "problem");
    }

    /** {@code AGENTS.md} in {@code workingDir}, cut at {@link #CAP_BYTES}. */
    public static StandingInstructions read(Path workingDir) {
        return read(workingDir, CAP_BYTES);
    }

    /** {@code AGENTS.md} in {@code workingDir}, cut at {@code capBytes}. */
    static StandingInstructions read(Path workingDir, int capBytes) {
        Path file = Objects.requireNonNull(workingDir, "workingDir").resolve(FILE_NAME);
        if (!Files.exists(file)) return new StandingInstructions(file, false, "", 0, 0, "");
        if (!Files.isRegularFile(file)) return new StandingInstructions(file, false, "", 0, 0, "not a regular file");
        try (InputStream in = Files.newInputStream(file)) {
            long size = Files.size(file);
            byte[] head = in.readNBytes(capBytes + 1);
            int kept = head.length <= capBytes ? head.length : boundary(head, capBytes);
            long bytes = head.length <= capBytes ? head.length : Math.max(size, head.length);
            return new StandingInstructions(file, true, new String(head, 0, kept, StandardCharsets.UTF_8), bytes,
                    kept, "");
        } catch (IOException | SecurityException e) {
            return new StandingInstructions(file, false, "", 0, 0, String.valueOf(e.getMessage()));
        }
    }

    /** Where to cut {@code bytes} at or before {@code cap} without splitting a UTF-8 character. */
    private static int boundary(byte[] bytes, int cap) {
        int at = cap;
        while (at > 0 && (bytes[at] & 0xC0) == 0x80) at--;
        return at;
    }

    /** Whether the file was longer than what is kept. */
    public boolean cut() {
        return found && kept < bytes;
    }

    /** One line saying how much was kept, when the file was cut. */
    public Optional<String> cutLine() {
        if (!cut()) return Optional.empty();
        return Optional.of(file + " is cut: the first " + kept + " of its " + bytes + " bytes are kept as standing "
                + "instructions (the cap is " + CAP_BYTES + " bytes)");
    }

    /** What {@code agent check} and the start say of it: found (path, size, cut or not), unreadable, or none. */
    public String line() {
        if (found) {
            return cutLine().orElse(file + ": " + bytes + " bytes, read whole as standing instructions");
        }
        if (!problem.isEmpty()) return file + " cannot be read (" + problem + "): no standing instructions";
        return "no " + FILE_NAME + " in " + file.getParent();
    }

    /** Context 0's part of it: the text under a heading that says what it is, and where it was cut; "" when none. */
    String render() {
        if (!found || text.isBlank()) return "";
        String cutNote = cut() ? "\n[" + FILE_NAME + " was cut here: the first " + kept + " of its " + bytes
                + " bytes are shown]" : "";
        return "Standing instructions from the person who runs you (" + FILE_NAME + " in the working directory, read "
                + "when you started; you cannot change them, only a person can):\n" + text.strip() + cutNote;
    }
}
