package dev.hmpagent.policy;

/** Internal signal of {@link ShellSplitter}: the line cannot be understood; the message is one line. */
final class ShellSyntaxException extends Exception {
    ShellSyntaxException(String reason) {
        super(reason, null, false, false);
    }
}
