package dev.hmpagent.safety;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The persisted safety state with its reason, what was said, since when, and (RESTING only) until when.
 */
public record SafetyStatus(SafetyState state, Optional<StopReason> reason, String detail, Instant since,
                           Optional<Instant> until) {
    public SafetyStatus {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(reason, "reason");
        detail = detail == null ? "" : detail;
        Objects.requireNonNull(since, "since");
        Objects.requireNonNull(until, "until");
        if ((state == SafetyState.STOPPED) != reason.isPresent()) {
            throw new IllegalArgumentException("a stop reason goes with STOPPED and only with it: " + state + " " + reason);
        }
        if ((state == SafetyState.RESTING) != until.isPresent()) {
            throw new IllegalArgumentException("an end time goes with RESTING and only with it: " + state + " " + until);
        }
    }

    /** A state that does not end by itself (every state but RESTING). */
    public SafetyStatus(SafetyState state, Optional<StopReason> reason, String detail, Instant since) {
        this(state, reason, detail, since, Optional.empty());
    }

    public boolean active() { return state == SafetyState.ACTIVE; }

    /** The reflex's rest: the agent does not think until its end time, a person's message or an unlock. */
    public boolean resting() { return state == SafetyState.RESTING; }

    /** "ACTIVE", "STOPPED(halt)", "SAFETY_LOCKOUT", "RESTING", ... */
    public String label() {
        return state + reason.map(r -> "(" + r.columnName() + ")").orElse("");
    }

    /** The label with the end time of a rest: "RESTING until 2026-11-27T10:10:00Z"; else {@link #label()}. */
    public String labelUntil() {
        return label() + until.map(u -> " until " + u).orElse("");
    }
}
