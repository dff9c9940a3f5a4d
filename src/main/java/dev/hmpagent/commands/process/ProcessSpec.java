package dev.hmpagent.commands.process;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * One external process to run: a command line for {@code /bin/sh -c} (the policy has already vetted
 * it), where it runs, how long it may take, and the {@code process_log} row id it belongs to.
 */
public record ProcessSpec(long id, String command, Path workingDirectory, Duration timeout) {
    public ProcessSpec {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(workingDirectory, "workingDirectory");
        Objects.requireNonNull(timeout, "timeout");
        if (command.isBlank()) {
            throw new IllegalArgumentException("command is blank");
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
    }
}
