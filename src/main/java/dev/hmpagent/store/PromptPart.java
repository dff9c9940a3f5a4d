package dev.hmpagent.store;

import java.util.Objects;

/**
 * One stored part of a tick's prompt: a piece of message {@code message} (0-based, with its {@code role}:
 * system, user or assistant) that renders context {@code context} (0-6). The parts of a message, in
 * order, joined are exactly its text.
 */
public record PromptPart(int message, String role, int context, String text) {
    public PromptPart {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(text, "text");
    }
}
