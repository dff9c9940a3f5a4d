package dev.hmpagent.llm;

/** A failure that repeats until the user changes something (key, model, URL). */
public final class FatalLlmException extends LlmException {
    public FatalLlmException(String kind, String message, Throwable cause) {
        super(kind, message, cause);
    }

    @Override
    public boolean retryable() { return false; }
}
