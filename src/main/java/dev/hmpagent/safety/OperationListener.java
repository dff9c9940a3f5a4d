package dev.hmpagent.safety;

/**
 * Told of every finished operation, success or failure, inside the transaction that records it (so its counters
 * are written with the operation they count: a restart neither forgets nor double counts), on the thread that
 * records it: the tick thread, which also records what the process runner hands in. The SafetyMonitor plugs in here.
 */
@FunctionalInterface
public interface OperationListener {
    /** Counts nothing; the result stays as it is. */
    OperationListener NONE = (tickId, outcome) -> outcome.result();

    /**
     * Returns the result text the LLM will see for that row: the handler's, or its meaning from a Guide, with an
     * alert where one is due. May move the safety state in the same transaction.
     */
    String onOperation(long tickId, Operation outcome);
}
