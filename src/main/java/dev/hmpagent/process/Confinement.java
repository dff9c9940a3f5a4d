package dev.hmpagent.process;

import java.util.Objects;

/**
 * How the processes the LLM starts are confined in this run, decided once at start: inside an OS sandbox, under the
 * text policy's stricter fallback, or not at all because the sandbox is required and missing (then {@code shell}
 * and {@code script_run} are refused).
 *
 * @param kind     which of the three
 * @param line     one line for a person (start, {@code agent check}): the mode in force and why
 * @param forModel one sentence for the LLM's context 0: what its commands can and cannot reach
 * @param launcher how the runner starts each command
 */
public record Confinement(Kind kind, String line, String forModel, Launcher launcher) {
    public enum Kind { SANDBOXED, FALLBACK, REFUSED }

    public Confinement {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(line, "line");
        Objects.requireNonNull(forModel, "forModel");
        Objects.requireNonNull(launcher, "launcher");
    }

    /** True when an OS sandbox confines every command. */
    public boolean sandboxed() {
        return kind == Kind.SANDBOXED;
    }

    /** Plain {@code /bin/sh -c}, nothing said: for code that builds a runner by hand (tests, benchmarks). */
    public static Confinement none() {
        return new Confinement(Kind.FALLBACK, "no sandbox", "", Launcher.UNCONFINED);
    }
}
