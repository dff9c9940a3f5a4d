package dev.hmpagent.store;

import java.util.Objects;

/** A database failure, with a one-line message that says what to do, and its {@link Kind}. */
public final class StoreException extends RuntimeException {

    /** What went wrong, as far as a caller needs to decide what to do next. */
    public enum Kind { BUSY, FULL, IO, READ_ONLY, CORRUPT, NOT_A_DATABASE, SCHEMA, OTHER }

    private final Kind kind;

    public StoreException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    public StoreException(Kind kind, String message) {
        super(message);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    /** A failure of kind {@link Kind#OTHER}. */
    public StoreException(String message, Throwable cause) {
        this(Kind.OTHER, message, cause);
    }

    /** A failure of kind {@link Kind#OTHER}. */
    public StoreException(String message) {
        this(Kind.OTHER, message);
    }

    public Kind kind() { return kind; }

    /**
     * A failure to write that may pass by itself (a lock, a full disk, an I/O error, a file made
     * read-only): back off, then {@link Store#probeWrite()} before spending work that must be saved.
     */
    /** True when the file itself is damaged or is no database: retrying cannot help; `agent check` tells more. */
    public boolean damaged() {
        return kind == Kind.CORRUPT || kind == Kind.NOT_A_DATABASE;
    }

    public boolean writeFailure() {
        return kind == Kind.BUSY || kind == Kind.FULL || kind == Kind.IO || kind == Kind.READ_ONLY;
    }
}
