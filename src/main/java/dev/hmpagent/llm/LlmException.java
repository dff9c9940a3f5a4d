package dev.hmpagent.llm;

/**
 * Root of the LLM error tree. The message is one line a user can act on: it names the
 * endpoint, says what went wrong and what to do. It never contains a secret.
 */
public abstract class LlmException extends RuntimeException {
    /** The kind of a refusal because the account's quota or credit is exhausted (OpenAI's 429 insufficient_quota). */
    public static final String INSUFFICIENT_QUOTA = "insufficient_quota";

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

    /** True when the account's quota or credit is exhausted: no retry helps until the user pays or switches provider. */
    public boolean quotaExhausted() {
        return INSUFFICIENT_QUOTA.equals(kind);
    }
}
