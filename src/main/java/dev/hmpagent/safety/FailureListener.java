package dev.hmpagent.safety;

/**
 * Told of every failure fact the cycle records (failed command, malformed command, failed LLM
 * call). The SafetyMonitor plugs in here; until then the facts are only recorded.
 */
@FunctionalInterface
public interface FailureListener {
    FailureListener NONE = (tickId, fact) -> { };

    void onFailure(long tickId, FailureFact fact);
}
