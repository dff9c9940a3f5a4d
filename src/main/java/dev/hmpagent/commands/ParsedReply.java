package dev.hmpagent.commands;

import java.util.List;
import java.util.Objects;

/**
 * One LLM reply split into its free text and its command block.
 *
 * @param thought         the text before the last start marker (earlier, quoted blocks included) plus any
 *                        text after the end marker of its block, trimmed, joined with a blank line when both
 *                        are present; the whole reply (trimmed) when there is no start marker. Line endings
 *                        are always {@code \n}.
 * @param commands        the valid commands, in block order
 * @param errors          one entry per command or piece of text that could not be used, in block order; from
 *                        the parser at most {@link CommandBlockParser#MAX_ERRORS}, the last one then saying
 *                        how many more were left out
 * @param hasCommandBlock true when a start marker ({@code # Commands:} / {@code # Команды:}) was found,
 *                        even if the block under it was empty
 */
public record ParsedReply(String thought, List<ParsedCommand> commands, List<CommandParseError> errors,
                          boolean hasCommandBlock) {

    public ParsedReply {
        Objects.requireNonNull(thought, "thought");
        commands = List.copyOf(Objects.requireNonNull(commands, "commands"));
        errors = List.copyOf(Objects.requireNonNull(errors, "errors"));
    }

    /** True when at least one command or piece of the block was rejected. */
    public boolean hasErrors() { return !errors.isEmpty(); }
}
