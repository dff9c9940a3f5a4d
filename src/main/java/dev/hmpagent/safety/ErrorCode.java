package dev.hmpagent.safety;

/** The normalised error codes of failure facts (POSIX-like, so a model reads them at a glance). */
public final class ErrorCode {
    /** Not allowed: the policy, the reserved command list, the control surface. */
    public static final String EPERM = "EPERM";
    /** What the command names does not exist. */
    public static final String ENOENT = "ENOENT";
    /** Malformed: unknown type, bad arguments, unparsable command. */
    public static final String EINVAL = "EINVAL";
    /** Took longer than allowed. */
    public static final String ETIMEDOUT = "ETIMEDOUT";
    /** Not run: a person halted the agent before it ran. */
    public static final String EHALT = "EHALT";
    /** Was in flight when the agent process ended. */
    public static final String EOFFLINE = "EOFFLINE";
    /** Refused because too many are already running. */
    public static final String EBUSY = "EBUSY";
    /** Over a quota: what this task's commands may add to the file roots. */
    public static final String EDQUOT = "EDQUOT";
    /** Too large (a file, an output). */
    public static final String EFBIG = "EFBIG";
    /**
     * Not run: the sandbox around it failed before the command started (bubblewrap or the drop to an unprivileged
     * uid broke after start-up). The machine's failure, not the model's: no pain, counted toward nothing, and the
     * person is told once.
     */
    public static final String ESANDBOX = "ESANDBOX";
    /** Anything else: a crashed handler, an unexpected failure. */
    public static final String EUNKNOWN = "EUNKNOWN";

    private ErrorCode() { }

    /** A process that ended with a non-zero exit status. */
    public static String exit(int status) {
        return "EEXIT(" + status + ")";
    }
}
