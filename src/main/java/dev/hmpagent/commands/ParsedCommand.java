package dev.hmpagent.commands;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * One well-formed command from the command block of a reply.
 *
 * <p>The JSON nodes are copied on the way in and on the way out, so an instance never changes.
 *
 * @param position    1-based position of the command in the block (counting rejected ones too)
 * @param cmdId       the command's {@code cmd_id}, or {@code auto-<position>} when the model sent none
 * @param type        the command type, non-blank
 * @param args        the {@code args} object; an empty object when the model sent none
 * @param description the {@code description}; empty when the model sent none
 * @param extra       every other top-level field of the command object (e.g. HMP's {@code target_llm})
 */
public record ParsedCommand(int position, String cmdId, String type, ObjectNode args, String description,
                            ObjectNode extra) {

    public ParsedCommand {
        if (position < 1) throw new IllegalArgumentException("position must be >= 1: " + position);
        Objects.requireNonNull(cmdId, "cmdId");
        Objects.requireNonNull(type, "type");
        if (cmdId.isBlank()) throw new IllegalArgumentException("blank cmdId");
        if (type.isBlank()) throw new IllegalArgumentException("blank type");
        args = Objects.requireNonNull(args, "args").deepCopy();
        Objects.requireNonNull(description, "description");
        extra = Objects.requireNonNull(extra, "extra").deepCopy();
    }

    /** A copy of the arguments object. */
    @Override
    public ObjectNode args() { return args.deepCopy(); }

    /** A copy of the fields this parser does not interpret. */
    @Override
    public ObjectNode extra() { return extra.deepCopy(); }
}
