package dev.hmpagent.commands;

import java.util.Objects;
import java.util.function.BiFunction;

/**
 * A handler made from a function, for command families that fit in a few lines each. Its {@link #signature()} is
 * read from the args example (every argument optional) until {@link #takes} declares it.
 */
public record SimpleCommand(String type, String summary, String argsExample, boolean informs,
                     BiFunction<Args, CommandContext, CommandOutcome> body, Signature signature) implements CommandHandler {
    public SimpleCommand {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(argsExample, "argsExample");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(signature, "signature");
    }

    public SimpleCommand(String type, String summary, String argsExample, boolean informs,
                         BiFunction<Args, CommandContext, CommandOutcome> body) {
        this(type, summary, argsExample, informs, body, Signature.fromExample(argsExample));
    }

    /** An effect-only command: its success does not wake the LLM. */
    public SimpleCommand(String type, String summary, String argsExample, BiFunction<Args, CommandContext, CommandOutcome> body) {
        this(type, summary, argsExample, false, body);
    }

    /** A command that returns what the LLM asked for: its result wakes the LLM once. */
    public static SimpleCommand informing(String type, String summary, String argsExample,
                                   BiFunction<Args, CommandContext, CommandOutcome> body) {
        return new SimpleCommand(type, summary, argsExample, true, body);
    }

    /** This command with the arguments it takes declared, in {@link Signature#parse}'s notation. */
    public SimpleCommand takes(String signature) {
        return new SimpleCommand(type, summary, argsExample, informs, body, Signature.parse(signature));
    }

    @Override
    public CommandOutcome execute(Args args, CommandContext context) {
        return body.apply(args, context);
    }
}
