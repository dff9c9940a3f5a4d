package dev.hmpagent.commands;

/** The command's args are wrong; the message says which and how to write them. */
public final class CommandArgException extends RuntimeException {
    public CommandArgException(String message) {
        super(message);
    }
}
