package dev.hmpagent.process;

/** How a process ended. */
public enum ProcessStatus {
    /** Exited with code 0. */
    OK,
    /** Exited with a non-zero code (in {@link ProcessResult#exitCode()}). */
    ERROR,
    /** Ran past its timeout; its process tree was killed. */
    TIMEOUT,
    /** Stopped on request ({@code process_stop}, a halt, shutdown); its process tree was killed. */
    KILLED,
    /** Never ran: the working directory is missing, {@code /bin/sh} could not be executed, … */
    FAILED_TO_START
}
