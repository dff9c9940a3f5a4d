package dev.hmpagent.llm;

/**
 * Root of the LLM error tree. The message is one line a user can act on: it names the
 * endpoint, says what went wrong and what to do. It never contains a secret.
 */
public abstract class LlmException extends RuntimeException {
    private final String kind;

    protected LlmException(String kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    /** A short stable code for the failure ("connect", "dns", "http_401", "timeout", ...), used in fingerprints. */
    public String kind() { return kind; }

    public abstract boolean retryable();

    /**
     * True when the server rejected the key or credentials (HTTP 401 or 403): no retry helps
     * until the user sets another key.
     */
    public boolean authRejected() {
        return "http_401".equals(kind) || "http_403".equals(kind);
    }
}
