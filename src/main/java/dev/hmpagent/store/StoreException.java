package dev.hmpagent.store;

/** A database failure, with a one-line message that says what to do. */
public final class StoreException extends RuntimeException {
    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }

    public StoreException(String message) {
        super(message);
    }
}
