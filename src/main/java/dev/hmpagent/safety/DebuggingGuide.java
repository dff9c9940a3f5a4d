package dev.hmpagent.safety;

/** {@code debugging}: a failure is diagnostic data; says what to check for its code. */
final class DebuggingGuide implements Guide {
    @Override
    public String name() {
        return "debugging";
    }

    @Override
    public String explain(FailureFact fact, int repeats) {
        return Guides.fact(fact, repeats) + " Diagnostic data: " + hint(fact.code()) + " " + Guides.CHANGE_STRATEGY;
    }

    private static String hint(String code) {
        if (ErrorCode.EPERM.equals(code)) {
            return "check the path against the allowed roots, the file's ownership and permissions, and the policy"
                    + " rules; a forbidden action stays forbidden.";
        }
        if (ErrorCode.ENOENT.equals(code)) {
            return "check the path (spelling, relative to which directory) and that it exists, e.g. with file_list.";
        }
        if (ErrorCode.EINVAL.equals(code)) {
            return "check the command type and its argument names and values against help.";
        }
        if (ErrorCode.ETIMEDOUT.equals(code)) {
            return "check whether the command waits for input or does too much at once; split it or narrow it.";
        }
        if (code.startsWith("EEXIT(")) {
            return "read the command's output for the cause; check paths, ownership and the arguments it was given.";
        }
        return "check paths, ownership and the arguments before anything else.";
    }
}
