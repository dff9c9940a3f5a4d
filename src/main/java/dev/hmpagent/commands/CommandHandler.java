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
     * The arguments it takes: names, JSON types, which are required, and aliases a model may write instead. By
     * default read from {@link #argsExample()} (every field optional); a handler that knows better declares it.
     */
    default Signature signature() {
        return Signature.fromExample(argsExample());
    }

    /**
     * Runs the command inside the tick's transaction. Bad arguments throw {@link CommandArgException};
     * a failure that is a normal result returns an error outcome.
     */
    CommandOutcome execute(Args args, CommandContext context);

    /**
     * Whether a success returns information the LLM asked for ({@code help}, {@code note_read}, {@code *_list},
     * {@code *_read}): such a result wakes the LLM once. An effect-only success ({@code send_message},
     * {@code memory_add}, ...) wakes nothing; it rides along in the next prompt something else causes.
     * A failure always wakes the LLM.
     */
    default boolean informs() {
        return false;
    }

    /**
     * Whether {@link #execute} waits on something outside the file (a peer's agent card over the network): the
     * executor then runs it outside any transaction, so the file's write lock is not held while it waits (other
     * processes write meanwhile), and the handler makes its own writes in a transaction of its own.
     */
    default boolean waits() {
        return false;
    }
}
