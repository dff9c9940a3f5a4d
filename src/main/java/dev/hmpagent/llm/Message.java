package dev.hmpagent.llm;

import java.util.Objects;

/** One chat message sent to or received from a model. */
public record Message(Role role, String content) {

    public enum Role { SYSTEM, USER, ASSISTANT;
        /** The lower-case wire name used by OpenAI-compatible servers. */
        public String wireName() { return name().toLowerCase(java.util.Locale.ROOT); }
    }

    public Message {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
    }

    public static Message system(String content) { return new Message(Role.SYSTEM, content); }

    public static Message user(String content) { return new Message(Role.USER, content); }

    public static Message assistant(String content) { return new Message(Role.ASSISTANT, content); }
}
