package dev.hmpagent.cycle;

import dev.hmpagent.stagnation.StagnationReflex;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.llm.Usage;
import dev.hmpagent.store.StoreException;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * What follows a reply's commit, on the tick thread, around the steps the cycle shows: the wake rule, the back-off and
 * the status learn of it ({@link #learn}); once its commands ran and step 5's model judged it, the anti-stagnation
 * reflex looks at it ({@link #reflex}) and the tick is done ({@link #done}). Holds no state of its own.
 */
public final class AfterWrite {
    private final Clock clock;
    private final StatusCell status;
    private final WakeRule wake;
    private final Retries retries;
    private final ReplyReview review;
    private final EventSink events;

    public AfterWrite(Clock clock, StatusCell status, WakeRule wake, Retries retries, ReplyReview review,
                      EventSink events) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.status = Objects.requireNonNull(status, "status");
        this.wake = Objects.requireNonNull(wake, "wake");
        this.retries = Objects.requireNonNull(retries, "retries");
        this.review = Objects.requireNonNull(review, "review");
        this.events = Objects.requireNonNull(events, "events");
    }

    /** The reply of {@code thought} is in the file: the wake rule, the back-off and the status learn of it. */
    void learn(TickWriter.Thought thought) {
        wake.thought(thought.prompt().noteWatermark());
        retries.succeeded();
        // the comparison's tokens count with the main call's, as in agent_log
        long tokens = thought.completion().usage().total() + thought.comparison().usage().total();
        status.update(s -> s.thought(thought.tickId(), tokens));
    }

    /** The tick of {@code thought} is done: said (its tokens and time), and its result. */
    TickResult done(TickWriter.Thought thought, TickWriter.Written written) {
        Usage usage = thought.completion().usage();
        events.emit(new AgentEvent.TickDone(thought.tickId(), written.outcome(), usage.promptTokens(),
                usage.completionTokens(), Duration.between(thought.start(), clock.instant()).toMillis()));
        return new TickResult(true, thought.tickId(), written.outcome());
    }

    /**
     * The anti-stagnation reflex after a reply was written and its commands ran: strategies fired change the next
     * tick's settings, a question to the person is shown like any message. A file that refuses the reflex's write
     * costs only this round: the signs are read again from the file at the next reply. Returns whether it queued
     * commands for the tick (a mesh request's {@code peer_message}s), which the caller then runs.
     */
    boolean reflex(TickWriter.Thought thought, TickWriter.Written written) {
        if (!written.replied()) return false;
        double novelty = written.stagnation() ? 0.0 : thought.comparison().novelty();
        StagnationReflex.After after;
        try {
            after = review.afterReply(thought.tickId(), novelty, thought.reviewed().personMessage());
        } catch (StoreException e) {
            if (e.damaged()) throw e;
            events.emit(new AgentEvent.Problem("the anti-stagnation reflex could not write after tick " + thought.tickId()
                    + ": " + e.getMessage() + " — it looks again after the next reply"));
            return false;
        }
        after.lines().forEach(line -> events.emit(new AgentEvent.Info(line, true)));
        after.question().ifPresent(q -> events.emit(new AgentEvent.MessageToUser(thought.tickId(), q.noteId(), q.text())));
        if (after.changed()) wake.settingsChanged();
        return after.queued();
    }
}
