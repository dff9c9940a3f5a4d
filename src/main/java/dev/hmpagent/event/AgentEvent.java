package dev.hmpagent.event;

import java.util.Objects;

/** Everything the user may see, whoever renders it (the REPL above its prompt, a headless runner as lines). */
public sealed interface AgentEvent {

    /**
     * Step 5's model is asked about the reply of {@code tickId}, now that what it had for the person is shown and its
     * commands ran: what was held back for that reply is shown before the wait (issue 35).
     */
    record Comparing(long tickId) implements AgentEvent { }

    /** A {@code send_message} from the LLM to the user, and its {@code notes} row (0 when it has none). */
    record MessageToUser(long tickId, long noteId, String text) implements AgentEvent {
        public MessageToUser { Objects.requireNonNull(text, "text"); }

        public MessageToUser(long tickId, String text) {
            this(tickId, 0, text);
        }
    }

    /**
     * The prose of a reply (the reply without its command block), shown as the answer to a person's message because
     * no message reached the person; a renderer marks it apart from a {@link MessageToUser}.
     */
    record ProseAnswer(long tickId, String text) implements AgentEvent {
        public ProseAnswer { Objects.requireNonNull(text, "text"); }
    }

    /** The free-text part of a reply. */
    record Thought(long tickId, String text, boolean interrupted) implements AgentEvent {
        public Thought { Objects.requireNonNull(text, "text"); }
    }

    /** A command finished (or was refused). */
    record CommandDone(long tickId, String cmdId, String type, String status, String result) implements AgentEvent { }

    /** A tick that called the LLM ended: its outcome (agent_log state), tokens and duration. */
    record TickDone(long tickId, String outcome, int promptTokens, int completionTokens, long durationMs)
            implements AgentEvent {
        public TickDone { Objects.requireNonNull(outcome, "outcome"); }
    }

    /** A frame with nothing new to think about (only reported when asked for: a verbose headless run). */
    record NoOp(long noOpTicks) implements AgentEvent { }

    /** Something went wrong; one line that says what and what to do. */
    record Problem(String text) implements AgentEvent {
        public Problem { Objects.requireNonNull(text, "text"); }
    }

    /**
     * A neutral status line. A {@code detail} (a reflex notice, a reply cut for repeating itself) is for those who
     * asked to see the machinery: the REPL shows it with /verbose normal or full.
     */
    record Info(String text, boolean detail) implements AgentEvent {
        public Info { Objects.requireNonNull(text, "text"); }

        public Info(String text) {
            this(text, false);
        }
    }

    /** The LLM call of a tick begins (the reply's text follows as {@link ReplyDelta}s when it streams). */
    record CallStarted(long tickId, String model) implements AgentEvent {
        public CallStarted { Objects.requireNonNull(model, "model"); }
    }

    /** A piece of the reply as it streams in, before any of it is parsed. */
    record ReplyDelta(long tickId, String text) implements AgentEvent {
        public ReplyDelta { Objects.requireNonNull(text, "text"); }
    }

    /**
     * The LLM call of a tick ended: complete, cut short ({@code interrupted}) or failed (no reply at all); the model
     * that answered (else the one asked), its tokens as the server counted them (estimated when it did not), the part
     * of the prompt tokens read from the server's prompt cache, and how long it took.
     */
    record CallEnded(long tickId, String model, int promptTokens, int cachedTokens, int completionTokens,
                     long durationMs, boolean interrupted, boolean failed) implements AgentEvent {
        public CallEnded { Objects.requireNonNull(model, "model"); }
    }

    /**
     * The LLM could not be reached (or failed transiently) and the call is tried again at {@code nextTry}; {@code
     * attempt} counts the failures in a row. {@code text} says what failed and what happens, in one line.
     */
    record Retrying(String text, int attempt, java.time.Instant nextTry) implements AgentEvent {
        public Retrying {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(nextTry, "nextTry");
        }
    }
}
