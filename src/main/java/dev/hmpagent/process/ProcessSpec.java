package dev.hmpagent.process;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One external process to run: a command line for {@code /bin/sh -c} (the policy has already vetted
 * it), where it runs, how long it may take, and the {@code process_log} row id it belongs to.
 *
 * @param readOnlyFiles files outside the file roots the command needs to read (the script a {@code script_run}
 *                      runs): a sandbox binds them read-only
 */
public record ProcessSpec(long id, String command, Path workingDirectory, Duration timeout, List<Path> readOnlyFiles) {
    public ProcessSpec {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(workingDirectory, "workingDirectory");
        Objects.requireNonNull(timeout, "timeout");
        readOnlyFiles = List.copyOf(Objects.requireNonNull(readOnlyFiles, "readOnlyFiles"));
        if (command.isBlank()) {
            throw new IllegalArgumentException("command is blank");
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
    }

    /** A command that needs no file outside the roots. */
    public ProcessSpec(long id, String command, Path workingDirectory, Duration timeout) {
        this(id, command, workingDirectory, timeout, List.of());
    }
}
