package dev.hmpagent.policy;

import java.util.List;
import java.util.Objects;

/**
 * What {@link ShellSplitter} made of a command line: the simple commands it would run, or why it could
 * not tell. A line that cannot be split must never be allowed.
 *
 * @param commands every simple command, in order of appearance (those inside {@code $(…)} included)
 * @param error    one line saying what could not be understood; empty when the split succeeded
 */
public record ShellSplit(List<ShellCommand> commands, String error) {
    public ShellSplit {
        commands = List.copyOf(Objects.requireNonNull(commands, "commands"));
        Objects.requireNonNull(error, "error");
        if (!error.isEmpty() && !commands.isEmpty()) {
            throw new IllegalArgumentException("a failed split has no commands");
        }
    }

    public static ShellSplit parsed(List<ShellCommand> commands) {
        return new ShellSplit(commands, "");
    }

    public static ShellSplit failed(String error) {
        if (error.isBlank()) {
            throw new IllegalArgumentException("a failure needs a reason");
        }
        return new ShellSplit(List.of(), error);
    }

    public boolean ok() {
        return error.isEmpty();
    }
}
