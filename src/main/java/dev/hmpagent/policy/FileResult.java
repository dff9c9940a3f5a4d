package dev.hmpagent.policy;

import java.util.Objects;

/**
 * The outcome of a {@link FileRoots} operation: a value, or a refusal with an errno-style code and a
 * one-line message the caller turns into a failure fact. Refusals are normal results, not exceptions.
 */
public sealed interface FileResult<T> permits FileResult.Ok, FileResult.Refused {
    /** Outside every root, a control-surface file, {@code .git}, or changed while it was opened. */
    String EPERM = "EPERM";
    String ENOENT = "ENOENT";
    String EISDIR = "EISDIR";
    /** Over a size cap. */
    String EFBIG = "EFBIG";
    /** Not a usable path, or the wrong kind of file for the operation. */
    String EINVAL = "EINVAL";
    /** The file system failed (permissions of the agent's own user, a full disk, ...). */
    String EIO = "EIO";

    boolean ok();

    /** The value; only for a result that is {@link #ok()}. */
    T value();

    /** EPERM, ENOENT, EISDIR, EFBIG, EINVAL or EIO; "" when ok. */
    String code();

    /** One line saying why; "" when ok. */
    String message();

    /** This refusal as a result of another type, for passing it on; only for a result that is not {@link #ok()}. */
    default <U> FileResult<U> refusal() {
        if (ok()) {
            throw new IllegalStateException("not a refusal");
        }
        return new Refused<>(code(), message());
    }

    static <T> FileResult<T> of(T value) {
        return new Ok<>(value);
    }

    static <T> FileResult<T> refused(String code, String message) {
        return new Refused<>(code, message);
    }

    record Ok<T>(T value) implements FileResult<T> {
        public Ok {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public boolean ok() {
            return true;
        }

        @Override
        public String code() {
            return "";
        }

        @Override
        public String message() {
            return "";
        }
    }

    record Refused<T>(String code, String message) implements FileResult<T> {
        public Refused {
            Objects.requireNonNull(code, "code");
            Objects.requireNonNull(message, "message");
            if (code.isEmpty() || message.isBlank() || message.contains("\n")) {
                throw new IllegalArgumentException("a refusal needs a code and a one-line message");
            }
        }

        @Override
        public boolean ok() {
            return false;
        }

        @Override
        public T value() {
            throw new IllegalStateException("refused (" + code + "): " + message);
        }
    }
}
