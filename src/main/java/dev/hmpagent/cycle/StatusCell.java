package dev.hmpagent.cycle;

import dev.hmpagent.cycle.CycleStatus.Phase;
import java.util.function.UnaryOperator;

/**
 * The cycle's {@link CycleStatus}, one volatile value: written by the tick thread only (the cycle and its parts),
 * read from any thread (/status, the heartbeat, a Ctrl-C that asks whether a call is in flight).
 */
public final class StatusCell {
    private volatile CycleStatus status;

    public StatusCell(CycleStatus initial) {
        this.status = initial;
    }

    CycleStatus get() { return status; }

    /** Tick thread only. */
    void update(UnaryOperator<CycleStatus> change) {
        status = change.apply(status);
    }

    /** Tick thread only. */
    void phase(Phase phase) {
        status = status.withPhase(phase);
    }
}
