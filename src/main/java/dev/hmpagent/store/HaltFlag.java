package dev.hmpagent.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Objects;
import java.util.Optional;

/**
 * A halt that could not be written to the database (full disk, a lock held too long): a small file
 * beside it ({@code agent.db.halt}). A running agent obeys it as it obeys a halt in the file, and
 * records it there once the file takes writes; {@code agent unlock} removes it. A person's halt must
 * never depend on free disk space in the database's pages.
 */
public final class HaltFlag {
    private final Path file;

    public HaltFlag(Path db) {
        Path absolute = Objects.requireNonNull(db, "db").toAbsolutePath();
        this.file = absolute.resolveSibling(absolute.getFileName() + ".halt");
    }

    public Path file() { return file; }

    public boolean raised() {
        return Files.exists(file);
    }

    /** The reason the flag carries ("" when none). */
    public Optional<String> reason() {
        try {
            return Optional.of(Files.readString(file, StandardCharsets.UTF_8).strip());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Raises the flag (a tiny file, written whole or not at all). */
    public void raise(String reason, Requester who) {
        Path tmp = file.resolveSibling(file.getFileName() + "." + who.pid() + ".tmp");
        try {
            Files.writeString(tmp, reason == null ? "" : reason, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // nothing more to tidy
            }
            throw new UncheckedIOException("could not write " + file + " either (" + e.getMessage() + ")", e);
        }
    }

    public void lower() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + file + " (" + e.getMessage() + "): remove it by hand", e);
        }
    }
}
