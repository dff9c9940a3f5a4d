package dev.hmpagent.cli;

import java.util.LinkedHashMap;
import java.util.Map;

/** Process exit codes (DESIGN.md, "Exit codes"), and what each means: the one text every command's help shows. */
final class ExitCodes {
    static final int OK = 0;
    static final int FAILURE = 1;
    static final int USAGE = 2;
    static final int CONFIG = 3;
    static final int IN_USE = 4;
    static final int DATABASE = 5;
    static final int LLM_UNAVAILABLE = 6;
    static final int STOPPED = 7;
    static final int NOTHING_SHOWN = 8;

    /** Code to meaning, in order. */
    static final Map<Integer, String> MEANINGS = meanings();

    private ExitCodes() { }

    private static Map<Integer, String> meanings() {
        Map<Integer, String> m = new LinkedHashMap<>();
        m.put(OK, "ok");
        m.put(FAILURE, "unexpected failure");
        m.put(USAGE, "bad usage");
        m.put(CONFIG, "bad configuration (a rejected API key too)");
        m.put(IN_USE, "file in use by another agent");
        m.put(DATABASE, "database error");
        m.put(LLM_UNAVAILABLE, "LLM unavailable after llm.give_up_s");
        m.put(STOPPED, "stopped or locked");
        m.put(NOTHING_SHOWN, "piped: the LLM answered but nothing could be shown");
        return java.util.Collections.unmodifiableMap(m);
    }
}
