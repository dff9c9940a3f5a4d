package dev.hmpagent.cycle;

import dev.hmpagent.safety.SafetyMonitor;
import dev.hmpagent.stagnation.Idling;
import java.time.Instant;
import java.util.Objects;

/**
 * The reflex's sleep as a persisted rest: the SafetyMonitor moves the safety state to RESTING with its end time, in
 * the reflex's transaction, audited; the person's line and the alert command follow once it committed. The tick loop
 * ends the rest ({@link Cycle#endRestIfDue}); nothing the LLM writes does.
 */
public final class ReflexIdle implements Idling {
    private final SafetyMonitor monitor;

    public ReflexIdle(SafetyMonitor monitor) {
        this.monitor = Objects.requireNonNull(monitor, "monitor");
    }

    @Override
    public void restUntil(long tickId, Instant until, String why) {
        monitor.rest(until, "anti-stagnation reflex, after tick " + tickId + ": " + why);
    }
}
