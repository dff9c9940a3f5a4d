package dev.hmpagent.commands;

import java.util.Objects;

/** A message a command delivered to the person, and the {@code notes} row that holds it. */
public record UserMessage(long noteId, String text) {
    public UserMessage {
        Objects.requireNonNull(text, "text");
    }
}
