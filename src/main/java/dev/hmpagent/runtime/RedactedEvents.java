package dev.hmpagent.runtime;

import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The sink every event of a run passes through on its way to a person (the REPL's renderer, {@code agent run}'s
 * printer): each text in it (a command's result, a message, a thought, a problem line) redacted the way a result is
 * stored, so what the terminal shows never holds a secret the database does not.
 */
final class RedactedEvents implements EventSink {
    private final EventSink next;
    private final UnaryOperator<String> redact;

    RedactedEvents(EventSink next, UnaryOperator<String> redact) {
        this.next = Objects.requireNonNull(next, "next");
        this.redact = Objects.requireNonNull(redact, "redact");
    }

    @Override
    public void emit(AgentEvent event) {
        next.emit(redacted(event));
    }

    private AgentEvent redacted(AgentEvent event) {
        if (event instanceof AgentEvent.MessageToUser m) {
            return new AgentEvent.MessageToUser(m.tickId(), m.noteId(), redact.apply(m.text()));
        } else if (event instanceof AgentEvent.ProseAnswer p) {
            return new AgentEvent.ProseAnswer(p.tickId(), redact.apply(p.text()));
        } else if (event instanceof AgentEvent.Thought t) {
            return new AgentEvent.Thought(t.tickId(), redact.apply(t.text()), t.interrupted());
        } else if (event instanceof AgentEvent.CommandDone d) {
            return new AgentEvent.CommandDone(d.tickId(), d.cmdId(), d.type(), d.status(),
                    d.result() == null ? null : redact.apply(d.result()));
        } else if (event instanceof AgentEvent.Problem p) {
            return new AgentEvent.Problem(redact.apply(p.text()));
        } else if (event instanceof AgentEvent.Info i) {
            return new AgentEvent.Info(redact.apply(i.text()), i.detail());
        } else if (event instanceof AgentEvent.ReplyDelta d) {
            return new AgentEvent.ReplyDelta(d.tickId(), redact.apply(d.text()));
        } else if (event instanceof AgentEvent.Retrying r) {
            return new AgentEvent.Retrying(redact.apply(r.text()), r.attempt(), r.nextTry());
        }
        return event;
    }
}
