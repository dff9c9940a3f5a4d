package dev.hmpagent.safety;

/**
 * Told of every finished command, success or failure, on the thread that recorded it, after its row is
 * committed. The SafetyMonitor plugs in here (it needs successes to count "8 of the last 10").
 */
@FunctionalInterface
public interface OutcomeListener {
    OutcomeListener NONE = (tickId, outcome) -> { };

    void onOutcome(long tickId, Outcome outcome);
}
