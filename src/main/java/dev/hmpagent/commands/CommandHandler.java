package dev.hmpagent.commands;

/** One command type the LLM may use. Register it in {@link CommandRegistry}; the catalog in context 0 follows. */
public interface CommandHandler {

    /** The {@code type} in the command JSON. */
    String type();

    /** One line: what it does. */
    String summary();

    /** The args object as the LLM should write it, e.g. {@code {"text": "...", "tags": "a,b"}}. */
    String argsExample();

    /**
     * Runs the command inside the tick's transaction. Bad arguments throw {@link CommandArgException};
     * a failure that is a normal result returns an error outcome.
     */
    CommandOutcome execute(Args args, CommandContext context);
}
