package dev.hmpagent.cycle;

import dev.hmpagent.cycle.CycleStatus.Phase;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.safety.StopSignal;
import dev.hmpagent.store.StoreException;
import java.util.Objects;
import java.util.Optional;

/**
 * Step 5's model, asked once a reply was written, shown and its commands ran: off the person's path (issue 35: an
 * answer done at 16.0 s was shown at 32.1 s, after a 15.5 s comparison call). Until then the reply carries its local
 * comparison; what the model finds is written over it in one short transaction, before the reflex reads it. Tick
 * thread only.
 */
public final class LateJudge {
    private final ReplyReview review;
    private final TickWriter writer;
    private final StatusCell status;
    private final EventSink events;

    public LateJudge(ReplyReview review, TickWriter writer, StatusCell status, EventSink events) {
        this.review = Objects.requireNonNull(review, "review");
        this.writer = Objects.requireNonNull(writer, "writer");
        this.status = Objects.requireNonNull(status, "status");
        this.events = Objects.requireNonNull(events, "events");
    }

    /**
     * The thought with what the model found, when a comparison was due ({@link ReplyReview.Reviewed#judgeDue()});
     * else as it is. A halt since {@code halt} asks nothing: the local comparison stands.
     */
    TickWriter.Thought judged(TickWriter.Thought thought, StopSignal.Since halt) {
        if (!thought.reviewed().judgeDue() || halt.halted() || thought.previous().isEmpty()) return thought;
        status.phase(Phase.COMPARING_REPLIES);
        events.emit(new AgentEvent.Comparing(thought.tickId()));
        Optional<ReplyReview.Reviewed> found = review.judge(thought.reviewed(), thought.previous().get().content(),
                thought.completion().text(), thought.prompt().messagesAsSent(thought.completion().toolsOffered(),
                        thought.completion().jsonAsked()));
        if (found.isEmpty()) return thought;
        TickWriter.Thought judged = thought.judged(found.get());
        try {
            writer.writeJudgement(judged);
        } catch (StoreException e) {
            if (e.damaged()) throw e;
            // the reflex still reads it from memory this once; the rows keep the local comparison
            events.emit(new AgentEvent.Problem("the comparison of tick " + thought.tickId() + " with the one before"
                    + " could not be written: " + e.getMessage() + " — its rows keep the local comparison"));
        }
        int tokens = judged.comparison().usage().total();
        if (tokens > 0) status.update(s -> s.thought(judged.tickId(), tokens));
        return judged;
    }
}
