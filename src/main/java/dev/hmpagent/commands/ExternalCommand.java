package dev.hmpagent.commands;

import java.util.Optional;
import java.util.function.Consumer;

/**
 * A command whose work runs outside the tick thread (a process, a second LLM call). The executor marks its row
 * {@code running} and calls {@link #start} outside any transaction; the result arrives later through
 * {@code onDone} (from any thread, exactly once) and is written by the tick thread, which then wakes the LLM.
 */
public interface ExternalCommand extends CommandHandler {

    /**
     * Starts the work without waiting for it. Returns empty when it started, or the outcome that ended it at
     * once (refused, bad arguments, could not start); then {@code onDone} is never called.
     */
    Optional<CommandOutcome> start(Args args, CommandContext context, long processLogId, Consumer<CommandOutcome> onDone);

    /** Not used: the executor calls {@link #start} for external commands. */
    @Override
    default CommandOutcome execute(Args args, CommandContext context) {
        throw new IllegalStateException(type() + " runs outside the tick thread: the executor calls start()");
    }

    /** An asynchronous result always wakes the LLM. */
    @Override
    default boolean informs() {
        return true;
    }
}
