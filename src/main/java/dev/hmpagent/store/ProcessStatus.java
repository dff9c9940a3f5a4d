package dev.hmpagent.store;

import java.util.Locale;

/** The status of a {@code process_log} row (the HMP values plus the two in-flight ones), with the one definition of "failed". */
public enum ProcessStatus {
    /** Parsed from a reply and committed with its tick; the executor has not run it yet. */
    PENDING,
    /** Handed to the process runner (or another asynchronous worker); its result is not in yet. */
    RUNNING,
    OK,
    /** Done, with something the LLM should look at (a partial success). */
    WARNING,
    ERROR,
    TIMEOUT,
    /** Was in flight when the agent process that ran it ended; never run again. */
    OFFLINE,
    /** Dealt with: leaves context 2. */
    CLOSE;

    /** The value stored in the {@code status} column. */
    public String column() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean failed() {
        return this == ERROR || this == TIMEOUT || this == OFFLINE;
    }

    public boolean inFlight() {
        return this == PENDING || this == RUNNING;
    }

    /** Parses a column value; throws IllegalArgumentException naming the valid ones. */
    public static ProcessStatus fromColumn(String value) {
        for (ProcessStatus s : values()) {
            if (s.column().equals(value)) return s;
        }
        throw new IllegalArgumentException("not a process_log status: \"" + value
                + "\" (pending, running, ok, warning, error, timeout, offline, close)");
    }
}
