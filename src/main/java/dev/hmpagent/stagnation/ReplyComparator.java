package dev.hmpagent.stagnation;

/**
 * Step 5 of the HMP cycle: compares the new reply with the previous one. Implementations never throw for a
 * failed or cancelled model call; they answer with what the local part knows (verdict UNKNOWN).
 */
public interface ReplyComparator {

    /** Compares two consecutive replies of the agent. */
    Comparison compare(String previous, String current);

    /**
     * Cancels the model call in flight, if any (a human halt), from any thread: the compare then returns what
     * the local part knows instead of waiting for the answer. Nothing to cancel by default.
     */
    default void cancel() { }
}
