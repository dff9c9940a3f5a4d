package dev.hmpagent.cli;

/** Process exit codes (DESIGN.md, "Exit codes"). */
final class ExitCodes {
    static final int OK = 0;
    static final int FAILURE = 1;
    static final int USAGE = 2;
    static final int CONFIG = 3;
    static final int IN_USE = 4;
    static final int DATABASE = 5;
    static final int LLM_UNAVAILABLE = 6;
    static final int STOPPED = 7;

    private ExitCodes() { }
}
