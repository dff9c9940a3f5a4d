package dev.hmpagent.commands;

import dev.hmpagent.safety.FailureFact;
import java.util.Optional;

/** What happened to one command of a reply (or to one malformed command). */
public record CommandRun(long processLogId, String cmdId, String type, String status, String result,
                         Optional<UserMessage> messageToUser, Optional<FailureFact> failure) {
    public boolean failed() { return failure.isPresent(); }
}
