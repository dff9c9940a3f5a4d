package dev.hmpagent.stagnation;

import dev.hmpagent.llm.Message;
import java.util.List;
import java.util.Optional;

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
     * The comparison of two consecutive replies when it needs no call to a model (as {@link #compare(String, String,
     * boolean)} would judge them), or empty when a model is to be asked: the cycle shows the answer and runs its
     * commands first, and asks the model after (issue 35). Empty by default: asked through compare.
     */
    default Optional<Comparison> withoutCall(String previous, String current, boolean newCommands) {
        return Optional.empty();
    }

    /**
     * The main request the compared reply answered, and the reply as it came: a comparison that asks a model may send
     * its question after them, so a one-slot server keeps its prompt cache (issue 35). Ignored by default.
     */
    default void answered(List<Message> request, String reply) { }

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
