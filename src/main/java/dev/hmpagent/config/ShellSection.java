package dev.hmpagent.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The [shell] section: limits of the process runner.
 *
 * @param timeout        how long a command may run when it names no timeout
 * @param maxTimeout     the longest timeout a command may ask for (never shorter than {@code timeout})
 * @param maxProcesses   how many commands may run at once
 * @param outputCapBytes how much of a command's output (its tail) is kept as the result
 * @param env            the variables of the agent's environment a person passes on to children besides the basics
 */
public record ShellSection(Duration timeout, Duration maxTimeout, int maxProcesses, int outputCapBytes,
                           List<String> env) {
    public ShellSection {
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(maxTimeout, "maxTimeout");
        env = List.copyOf(env);
    }

    /** The limits, passing on no variable besides the basics. */
    public ShellSection(Duration timeout, Duration maxTimeout, int maxProcesses, int outputCapBytes) {
        this(timeout, maxTimeout, maxProcesses, outputCapBytes, List.of());
    }
}
