package dev.hmpagent.stagnation;

/**
 * Step 5 of the HMP cycle: compares the new reply with the previous one. Implementations never throw for a
 * failed or cancelled model call; they answer with what the local part knows (verdict UNKNOWN).
 */
public interface ReplyComparator {

    /** Compares two consecutive replies of the agent. */
    Comparison compare(String previous, String current);

    /**
     * Compares two consecutive replies knowing whether the new one asks for a command the previous one did not (by
     * type and arguments): a reply that acts differently holds something new, whatever its words. Only the hybrid
     * comparison uses it, to spare a call; the others compare the texts.
     */
    default Comparison compare(String previous, String current, boolean newCommands) {
        return compare(previous, current);
    }

    /**
     * Compares two consecutive replies when the new one came after news from the world (a command's new result): no
     * call to a model is made for it (issue 23). A comparison that would have asked the model
     * counts the reply as new instead; the local score stands where it decides alone.
     */
    default Comparison compareAfterProgress(String previous, String current) {
        return compare(previous, current);
    }

    /**
     * Cancels the model call in flight, if any (a human halt), from any thread: the compare then returns what
     * the local part knows instead of waiting for the answer. Nothing to cancel by default.
     */
    default void cancel() { }
}
