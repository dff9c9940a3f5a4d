package dev.hmpagent.repl;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One REPL command: its name ({@code /status}), the arguments it takes ({@code [n]}, "" for none), a one-line
 * summary (shown by /help and beside the name when Tab completes it), what it does, and the values its argument
 * may take (for completion; empty when free text).
 */
public record SlashCommand(String name, String args, String summary, Handler handler, Supplier<List<String>> choices) {

    /** Runs the command. */
    @FunctionalInterface
    public interface Handler {
        /**
         * @param args what followed the name, stripped ("" when nothing)
         * @return the text to show above the prompt (several lines allowed; "" shows nothing)
         */
        String run(String args);
    }

    public SlashCommand {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(args, "args");
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(choices, "choices");
        if (!name.matches("/[a-z][a-z0-9-]*")) throw new IllegalArgumentException("not a command name: " + name);
    }

    public SlashCommand(String name, String args, String summary, Handler handler) {
        this(name, args, summary, handler, List::of);
    }
}
