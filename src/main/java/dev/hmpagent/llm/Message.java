package dev.hmpagent.llm;

import java.util.Objects;

/** One chat message sent to or received from a model. */
public record Message(Role role, String content) {

    /** Who speaks. Each provider's adapter names the roles in its own wire format; none of that lives here. */
    public enum Role { SYSTEM, USER, ASSISTANT;
        /** Our own word for the role, as stored with a tick's prompt and shown by `agent log`. */
        public String word() { return name().toLowerCase(java.util.Locale.ROOT); }
    }

    public Message {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
    }

    public static Message system(String content) { return new Message(Role.SYSTEM, content); }

    public static Message user(String content) { return new Message(Role.USER, content); }

    public static Message assistant(String content) { return new Message(Role.ASSISTANT, content); }
}
