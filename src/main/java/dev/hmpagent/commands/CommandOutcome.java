package dev.hmpagent.commands;

import java.util.Objects;
import java.util.Optional;

/** What a command returns: a process_log status, the result text the LLM sees, and maybe a message for the user. */
public record CommandOutcome(String status, String result, Optional<UserMessage> messageToUser) {
    public CommandOutcome {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(messageToUser, "messageToUser");
    }

    public static CommandOutcome ok(String result) {
        return new CommandOutcome("ok", result, Optional.empty());
    }

    /** Done, or not done, with something the LLM should know: a reminder, a partial result. Not a failure. */
    public static CommandOutcome warning(String result) {
        return new CommandOutcome("warning", result, Optional.empty());
    }

    public static CommandOutcome error(String result) {
        return new CommandOutcome("error", result, Optional.empty());
    }

    public boolean failed() {
        return status.equals("error");
    }
}
