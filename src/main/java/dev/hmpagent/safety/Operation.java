package dev.hmpagent.safety;

import java.util.Objects;
import java.util.Optional;

/**
 * One finished operation as the SafetyMonitor is told of it: a command, a format slip of the model's (told, never
 * counted), a reply cut for chanting, or a failed LLM call.
 *
 * @param processLogId the {@code process_log} row
 * @param source       what kind of operation it was
 * @param type         the command type ({@code command_parse} for an unreadable command, {@code chanting},
 *                     {@code llm_call})
 * @param fingerprint  {@link Fingerprint#ofCommand} of the command (of the failure for the other sources)
 * @param status       the row's final status column value
 * @param result       the result text as the handler gave it
 * @param progressKey  {@link ResultState#of} of the command and its result ("" for other sources): the same
 *                     key again and again with no new input is a loop that makes no progress
 * @param failure      the failure fact, when it failed
 */
public record Operation(long processLogId, Source source, String type, String fingerprint, String status, String result,
                      String progressKey, Optional<FailureFact> failure) {
    /** Where an operation came from. */
    public enum Source {
        COMMAND,
        /**
         * The model's format slip: a command the agent could not read (invalid JSON, no type, a block it cannot cut)
         * or whose arguments do not fit its command. Not a failure of the world: the model is told the exact error
         * with a correct example ({@code commands.FormatSlips} bounds how often in a row); never counted toward a
         * lockout. An unknown command type is no slip: a failed {@link #COMMAND}.
         */
        SLIP,
        /** A reply cut where it started repeating the same text over and over (chanting): its own kind. */
        CHANT,
        /** An LLM call the server refused (400, 401, 403…): asking again unchanged fails again. */
        LLM_FATAL,
        /** An LLM call that may succeed later (timeout, 429, 5xx, no connection): never a failure of the LLM's own. */
        LLM_TRANSIENT
    }

    public Operation {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(progressKey, "progressKey");
        Objects.requireNonNull(failure, "failure");
    }

    /**
     * A command's outcome as the executor tells it, and as {@code agent replay} tells a recorded one: the progress key
     * is computed here, from the command's type, arguments and result, so both count a step alike.
     *
     * @param slip arguments that do not fit their command: a format slip, told and never counted
     */
    public static Operation ofCommand(long processLogId, String type, com.fasterxml.jackson.databind.JsonNode args,
                                      String fingerprint, String status, String result, Optional<FailureFact> failure,
                                      boolean slip) {
        return new Operation(processLogId, slip ? Source.SLIP : Source.COMMAND, type, fingerprint, status, result,
                ResultState.of(type, args, result, failure.isPresent()), failure);
    }

    public boolean failed() {
        return failure.isPresent();
    }
}
