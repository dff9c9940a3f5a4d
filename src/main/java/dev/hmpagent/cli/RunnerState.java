package dev.hmpagent.cli;

import dev.hmpagent.store.RunnerLock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * What is true of the agent named in the file's runner row, as {@code agent status} says it. A stale heartbeat alone
 * does not say the agent stopped: its pid may still be the agent's (a stopped or hung JVM: running, not answering),
 * or the number may belong to another process now (pid reuse: a process that started after the agent took the file
 * cannot be it).
 */
enum RunnerState {
    /** Its heartbeat is fresh (and, on this host, its pid lives). */
    RUNNING,
    /** On this host, its pid is still the agent's process, but its heartbeat is stale. */
    NOT_ANSWERING,
    /** On this host, its pid has ended. */
    ENDED,
    /** On this host, its pid lives but started after the agent took the file: another process has the number. */
    PID_REUSED,
    /** On another host, its heartbeat stale: nothing more can be checked from here. */
    STALE;

    /** A process's start time is known to about a clock tick; the agent takes the file well after its JVM starts. */
    private static final Duration START_SLACK = Duration.ofSeconds(1);

    /** The state of {@code h}; {@code live}: what the lock says (its pid here, its heartbeat's age). */
    static RunnerState of(RunnerLock.Holder h, boolean live) {
        if (!h.host().equals(RunnerLock.hostName())) return live ? RUNNING : STALE;
        Optional<ProcessHandle> process = ProcessHandle.of(h.pid()).filter(ProcessHandle::isAlive);
        if (process.isEmpty()) return ENDED;
        if (live) return RUNNING;
        Optional<Instant> started = process.get().info().startInstant();
        return started.isPresent() && started.get().isAfter(h.startedAt().plus(START_SLACK)) ? PID_REUSED
                : NOT_ANSWERING;
    }

    /** The words after the runner's line: "" while it runs; {@code age}: its heartbeat's age in seconds. */
    String words(RunnerLock.Holder h, double age) {
        String beat = String.format(Locale.ROOT, "its heartbeat is %.1f s old", age);
        return switch (this) {
            case RUNNING -> "";
            case NOT_ANSWERING -> " (running but not answering: pid " + h.pid() + " is still the agent's process, but "
                    + beat + "; the next agent would take the file over)";
            case ENDED -> " (not running: pid " + h.pid() + " has ended; the next agent takes the file over)";
            case PID_REUSED -> " (not running: " + beat + ", and pid " + h.pid() + " is another process now;"
                    + " the next agent takes the file over)";
            case STALE -> " (" + beat + "; it runs on " + h.host() + ", which cannot be checked from here: it looks"
                    + " stopped, and the next agent takes the file over)";
        };
    }

    /** The JSON value: "running", "not_answering", "ended", "pid_reused", "stale". */
    String json() {
        return name().toLowerCase(Locale.ROOT);
    }
}
