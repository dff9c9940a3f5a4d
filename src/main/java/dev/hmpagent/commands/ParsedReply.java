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
 * @param blockText       the raw text of the chosen block: the lines between its start marker and its end
 *                        marker (both left out; to the end of the reply when there is no end marker), joined
 *                        with {@code \n}, fences included, not trimmed; empty when there is no start marker.
 *                        Lets a caller compare a reply's block with blocks shown to the model as data.
 */
public record ParsedReply(String thought, List<ParsedCommand> commands, List<CommandParseError> errors,
                          boolean hasCommandBlock, String blockText) {

    public ParsedReply {
        Objects.requireNonNull(thought, "thought");
        commands = List.copyOf(Objects.requireNonNull(commands, "commands"));
        errors = List.copyOf(Objects.requireNonNull(errors, "errors"));
        Objects.requireNonNull(blockText, "blockText");
    }

    /** A reply without block text (kept for callers written before {@link #blockText()} existed). */
    public ParsedReply(String thought, List<ParsedCommand> commands, List<CommandParseError> errors,
                       boolean hasCommandBlock) {
        this(thought, commands, errors, hasCommandBlock, "");
    }

    /** True when at least one command or piece of the block was rejected. */
    public boolean hasErrors() { return !errors.isEmpty(); }
}
