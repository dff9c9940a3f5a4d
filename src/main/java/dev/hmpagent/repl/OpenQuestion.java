package dev.hmpagent.repl;

/**
 * A question the agent has put to the person (may this command run?), which the next line they enter may answer.
 * The REPL offers every line to it first; the composition root plugs in the executor's approver.
 */
@FunctionalInterface
public interface OpenQuestion {
    /**
     * Offers a line the person entered: true when it answered the open question, false when it is an ordinary
     * message (or no question is open).
     */
    boolean offer(String line);
}
