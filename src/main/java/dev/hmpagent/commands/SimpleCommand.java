package dev.hmpagent.commands;

import java.util.Objects;
import java.util.function.BiFunction;

/** A handler made from a function, for command families that fit in a few lines each. */
record SimpleCommand(String type, String summary, String argsExample,
                     BiFunction<Args, CommandContext, CommandOutcome> body) implements CommandHandler {
    SimpleCommand {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(argsExample, "argsExample");
        Objects.requireNonNull(body, "body");
    }

    @Override
    public CommandOutcome execute(Args args, CommandContext context) {
        return body.apply(args, context);
    }
}
