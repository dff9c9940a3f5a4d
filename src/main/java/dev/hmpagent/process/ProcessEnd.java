package dev.hmpagent.process;

/** How an OS process ended; not a {@code process_log} status (that is {@code store.ProcessStatus}). */
public enum ProcessEnd {
    /** Exited with code 0. */
    OK,
    /** Exited with a non-zero code (in {@link ProcessResult#exitCode()}). */
    ERROR,
    /** Ran past its timeout; its process tree was killed. */
    TIMEOUT,
    /** Stopped on request ({@code process_stop}, a halt, shutdown); its process tree was killed. */
    KILLED,
    /**
     * Never ran: the sandbox around it failed first (bubblewrap, or a root agent's drop to an unprivileged uid, said
     * so, or could not be started). The machine's failure, not the command's.
     */
    SANDBOX_FAILED,
    /** Never ran: the working directory is missing, {@code /bin/sh} could not be executed, … */
    FAILED_TO_START
}
