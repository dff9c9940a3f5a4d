package dev.hmpagent.cycle;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A snapshot of the cycle for /status and status lines; safe to read from any thread.
 *
 * @param retryAt       when the next try is due while backing off
 * @param lastError     the last failure, one line ("" when none)
 * @param trouble       what keeps the cycle from thinking normally right now
 * @param troubleSince  when that trouble began (its first failure), while there is one
 */
public record CycleStatus(Phase phase, long lastTickId, long tokensUsed, Optional<Instant> retryAt, String lastError,
                          Trouble trouble, Optional<Instant> troubleSince) {

    /** What the tick thread is doing. */
    public enum Phase { WAITING_FOR_EVENT, ASSEMBLING_CONTEXT, AWAITING_LLM, EXECUTING, COMPARING_REPLIES, IDLE, BACKING_OFF }

    /** What keeps the cycle from thinking normally. */
    public enum Trouble {
        NONE,
        /** The LLM cannot be reached or fails transiently: retried with back-off. */
        LLM_UNAVAILABLE,
        /** The LLM refused the request (key, model, URL): not called again until a new message or a restart. */
        LLM_REJECTED,
        /** The file cannot be written (full, locked, I/O error): retried with back-off, no LLM call until it can. */
        STORE,
        /** A tick failed for another reason (a fault in the agent): retried with back-off. */
        ERROR
    }

    public CycleStatus {
        lastError = lastError == null ? "" : lastError;
        Objects.requireNonNull(retryAt, "retryAt");
        Objects.requireNonNull(trouble, "trouble");
        Objects.requireNonNull(troubleSince, "troubleSince");
    }

    public static CycleStatus initial(long lastTickId, long tokensUsed) {
        return new CycleStatus(Phase.WAITING_FOR_EVENT, lastTickId, tokensUsed, Optional.empty(), "", Trouble.NONE,
                Optional.empty());
    }

    CycleStatus withPhase(Phase p) {
        return new CycleStatus(p, lastTickId, tokensUsed, p == Phase.WAITING_FOR_EVENT ? Optional.empty() : retryAt,
                lastError, trouble, troubleSince);
    }

    /** After a tick that was written: the trouble, if any, is over. */
    CycleStatus thought(long tickId, long tokens) {
        return new CycleStatus(phase, tickId, tokensUsed + tokens, Optional.empty(), "", Trouble.NONE, Optional.empty());
    }

    /** A failure of kind {@code t}; the trouble's start is kept while the same trouble goes on. */
    CycleStatus failing(Trouble t, Instant now, long tickId, Optional<Instant> retry, String error) {
        Optional<Instant> since = trouble == t && troubleSince.isPresent() ? troubleSince : Optional.of(now);
        return new CycleStatus(retry.isPresent() ? Phase.BACKING_OFF : Phase.WAITING_FOR_EVENT, tickId, tokensUsed,
                retry, error, t, since);
    }

    CycleStatus untroubled() {
        return new CycleStatus(phase, lastTickId, tokensUsed, Optional.empty(), "", Trouble.NONE, Optional.empty());
    }
}
