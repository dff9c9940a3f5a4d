package dev.hmpagent.cycle;

import java.time.Instant;
import java.util.Optional;

/** A snapshot of the cycle for /status and status lines; safe to read from any thread. */
public record CycleStatus(Phase phase, long lastTickId, long tokensUsed, Optional<Instant> retryAt, String lastError) {

    /** What the tick thread is doing. */
    public enum Phase { WAITING_FOR_EVENT, ASSEMBLING_CONTEXT, AWAITING_LLM, EXECUTING, BACKING_OFF }

    public CycleStatus {
        lastError = lastError == null ? "" : lastError;
    }
}
