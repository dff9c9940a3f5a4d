package dev.hmpagent.process;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * How one process ended.
 *
 * @param id       the {@link ProcessSpec#id()} it was started with
 * @param status   how it ended
 * @param exitCode the exit code for {@link ProcessEnd#OK} (0) and {@link ProcessEnd#ERROR}
 *                 (non-zero); {@code null} otherwise (a killed process has no code of its own)
 * @param output   the tail of its combined stdout and stderr, at most the runner's cap in bytes of
 *                 UTF-8, preceded by one line saying how much was cut when it was cut
 * @param duration from start to end as the runner's clock saw it
 * @param reason   one line for a person or the LLM: "exit 0", "exit 2", "timed out after 30 s; …",
 *                 "stopped by process_stop", "working directory /x does not exist"
 */
public record ProcessResult(
        long id, ProcessEnd status, Integer exitCode, String output, Duration duration, String reason) {

    public ProcessResult {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(reason, "reason");
        boolean exited = status == ProcessEnd.OK || status == ProcessEnd.ERROR;
        if (exited != (exitCode != null)) {
            throw new IllegalArgumentException(status + " with exit code " + exitCode);
        }
        if (status == ProcessEnd.OK && exitCode != 0 || status == ProcessEnd.ERROR && exitCode == 0) {
            throw new IllegalArgumentException(status + " with exit code " + exitCode);
        }
    }

    /** The exit code when the process exited by itself (OK or ERROR); empty when it was killed or never ran. */
    public OptionalInt optionalExitCode() {
        return exitCode == null ? OptionalInt.empty() : OptionalInt.of(exitCode);
    }
}
