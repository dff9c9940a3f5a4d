package dev.hmpagent.safety;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** The persisted safety state with its reason, what was said, and since when. */
public record SafetyStatus(SafetyState state, Optional<StopReason> reason, String detail, Instant since) {
    public SafetyStatus {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(reason, "reason");
        detail = detail == null ? "" : detail;
        Objects.requireNonNull(since, "since");
        if ((state == SafetyState.STOPPED) != reason.isPresent()) {
            throw new IllegalArgumentException("a stop reason goes with STOPPED and only with it: " + state + " " + reason);
        }
    }

    public boolean active() { return state == SafetyState.ACTIVE; }

    /** "ACTIVE", "STOPPED(halt)", "SAFETY_LOCKOUT", ... */
    public String label() {
        return state + reason.map(r -> "(" + r.columnName() + ")").orElse("");
    }
}
