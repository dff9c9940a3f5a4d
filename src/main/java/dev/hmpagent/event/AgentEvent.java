package dev.hmpagent.event;

import java.util.Objects;

/** Everything the user may see, whoever renders it (the REPL above its prompt, a headless runner as lines). */
public sealed interface AgentEvent {

    /** A {@code send_message} from the LLM to the user, and its {@code notes} row (0 when it has none). */
    record MessageToUser(long tickId, long noteId, String text) implements AgentEvent {
        public MessageToUser { Objects.requireNonNull(text, "text"); }

        public MessageToUser(long tickId, String text) {
            this(tickId, 0, text);
        }
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

    /** A neutral status line (retry scheduled, reflex fired, ...). */
    record Info(String text) implements AgentEvent {
        public Info { Objects.requireNonNull(text, "text"); }
    }
}
