package dev.hmpagent.llm;

import java.util.Objects;

/**
 * One chat message sent to or received from a model. {@code stablePrefix} is how many leading characters of the
 * content are expected to stay byte-identical from one tick to the next (the slow contexts): an adapter whose provider
 * caches prompts by explicit breakpoints (Anthropic's {@code cache_control}) may put one there; others ignore it.
 * 0 means no hint.
 */
public record Message(Role role, String content, int stablePrefix) {

    /** Who speaks. Each provider's adapter names the roles in its own wire format; none of that lives here. */
    public enum Role { SYSTEM, USER, ASSISTANT;
        /** Our own word for the role, as stored with a tick's prompt and shown by `agent log`. */
        public String word() { return name().toLowerCase(java.util.Locale.ROOT); }
    }

    public Message {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
        if (stablePrefix < 0 || stablePrefix > content.length()) {
            throw new IllegalArgumentException("stablePrefix " + stablePrefix + " outside 0.." + content.length());
        }
    }

    /** A message with no cache hint. */
    public Message(Role role, String content) {
        this(role, content, 0);
    }

    /** The same message with a hint that its first {@code chars} characters stay the same from tick to tick. */
    public Message withStablePrefix(int chars) {
        return new Message(role, content, chars);
    }

    public static Message system(String content) { return new Message(Role.SYSTEM, content); }

    public static Message user(String content) { return new Message(Role.USER, content); }

    public static Message assistant(String content) { return new Message(Role.ASSISTANT, content); }
}
