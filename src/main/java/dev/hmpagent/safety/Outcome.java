package dev.hmpagent.safety;

import java.util.Objects;
import java.util.Optional;

/**
 * One finished operation as the SafetyMonitor counts it: a command (or a malformed one), success or failure.
 *
 * @param processLogId the {@code process_log} row
 * @param type         the command type ({@code command_parse} for a malformed command)
 * @param fingerprint  {@link Fingerprint#ofCommand} of the command
 * @param status       the row's final status column value
 * @param failure      the failure fact, when it failed
 */
public record Outcome(long processLogId, String type, String fingerprint, String status, Optional<FailureFact> failure) {
    public Outcome {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(failure, "failure");
    }

    public boolean failed() {
        return failure.isPresent();
    }
}
