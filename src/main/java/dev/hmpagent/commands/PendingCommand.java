package dev.hmpagent.commands;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * A command of a committed reply, waiting for the executor: its {@code process_log} row and what the LLM wrote.
 *
 * @param fingerprint {@link dev.hmpagent.safety.Fingerprint#ofCommand} of type and args
 */
public record PendingCommand(long processLogId, long tickId, String cmdId, String type, ObjectNode args,
                             String description, String fingerprint) {
    public PendingCommand {
        Objects.requireNonNull(cmdId, "cmdId");
        Objects.requireNonNull(type, "type");
        args = Objects.requireNonNull(args, "args").deepCopy();
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(fingerprint, "fingerprint");
    }

    @Override
    public ObjectNode args() { return args.deepCopy(); }
}
