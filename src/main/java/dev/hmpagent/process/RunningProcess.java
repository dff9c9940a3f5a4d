package dev.hmpagent.process;

import java.time.Instant;
import java.util.Objects;

/** One process that is running now, as {@link ProcessRunner#running()} lists it. */
public record RunningProcess(long id, long pid, String command, Instant startedAt) {
    public RunningProcess {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(startedAt, "startedAt");
    }
}
