package dev.hmpagent.safety;

/**
 * Told of every failure fact the cycle records (failed command, malformed command, failed LLM
 * call). Test code: the fixtures of the command families collect the facts through it.
 */
@FunctionalInterface
public interface FailureListener {
    FailureListener NONE = (tickId, fact) -> { };

    void onFailure(long tickId, FailureFact fact);
}
