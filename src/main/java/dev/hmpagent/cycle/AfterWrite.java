package dev.hmpagent.cycle;

import dev.hmpagent.stagnation.StagnationReflex;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.llm.Usage;
import dev.hmpagent.safety.StopSignal;
import dev.hmpagent.store.StoreException;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * What follows a reply's commit, on the tick thread: the wake rule and the back-off learn of it, the person is told,
 * the reply's commands run (step 4), step 5's model compares it with the one before if it must, and the
 * anti-stagnation reflex looks at it. Holds no state of its own.
 */
final class AfterWrite {
    private final Clock clock;
    private final StatusCell status;
    private final WakeRule wake;
    private final Retries retries;
    private final CommandStep commands;
    private final ReplyNotices notices;
    private final ReplyReview review;
    private final EventSink events;
    private final Answers answers;
    private final LateJudge judge;

    AfterWrite(Clock clock, StatusCell status, WakeRule wake, Retries retries, CommandStep commands,
               ReplyNotices notices, ReplyReview review, EventSink events, Answers answers, LateJudge judge) {
        this.judge = Objects.requireNonNull(judge, "judge");
        this.answers = Objects.requireNonNull(answers, "answers");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.status = Objects.requireNonNull(status, "status");
        this.wake = Objects.requireNonNull(wake, "wake");
        this.retries = Objects.requireNonNull(retries, "retries");
        this.commands = Objects.requireNonNull(commands, "commands");
        this.notices = Objects.requireNonNull(notices, "notices");
        this.review = Objects.requireNonNull(review, "review");
        this.events = Objects.requireNonNull(events, "events");
    }

    /** The reply of {@code thought} is in the file; {@code halt} is when the tick running its commands began. */
    TickResult committed(TickWriter.Thought thought, TickWriter.Written written, StopSignal.Since halt) {
        wake.thought(thought.prompt().noteWatermark());
        retries.succeeded();
        // the comparison's tokens count with the main call's, as in agent_log
        long tokens = thought.completion().usage().total() + thought.comparison().usage().total();
        status.update(s -> s.thought(thought.tickId(), tokens));
        if (written.replied()) answers.replied(thought.answersPerson(), thought.reviewed().stimulus());
        notices.afterCommit(thought, written);
        if (written.pending() > 0) execute(thought.tickId(), thought.completion().model(), halt);
        if (written.replied()) {
            // shown after the commands ran: a send_message among them is the answer, and the prose is not; a reply
            // whose block is about to be corrected is not an answer yet (the correction's reply may be); a reply cut
            // for chanting is shown as cut, so the person sees what the model said (issue 35)
            answers.ran(thought.tickId(), thought.parsed(), !written.stagnation()
                    && !notices.correcting(thought.tickId()));
        }
        notices.afterCommands(thought);
        // step 5's model, if the comparison needs one, once the person has the answer and the commands ran
        TickWriter.Thought judged = written.replied() ? judge.judged(thought, halt) : thought;
        if (written.replied()) reflex(judged, written);
        Usage usage = thought.completion().usage();
        events.emit(new AgentEvent.TickDone(thought.tickId(), written.outcome(), usage.promptTokens(),
                usage.completionTokens(), Duration.between(thought.start(), clock.instant()).toMillis()));
        return new TickResult(true, thought.tickId(), written.outcome());
    }

    /** Runs the pending commands of {@code tickId}; what they set applies from the next wake check. */
    void execute(long tickId, String model, StopSignal.Since halt) {
        wake.settingsChanged();
        commands.run(tickId, model, halt);
    }

    /**
     * The anti-stagnation reflex after a reply was written and its commands ran: strategies fired change the next
     * tick's settings, a question to the person is shown like any message. A file that refuses the reflex's write
     * costs only this round: the signs are read again from the file at the next reply.
     */
    private void reflex(TickWriter.Thought thought, TickWriter.Written written) {
        double novelty = written.stagnation() ? 0.0 : thought.comparison().novelty();
        StagnationReflex.After after;
        try {
            after = review.afterReply(thought.tickId(), novelty, thought.reviewed().personMessage());
        } catch (StoreException e) {
            if (e.damaged()) throw e;
            events.emit(new AgentEvent.Problem("the anti-stagnation reflex could not write after tick " + thought.tickId()
                    + ": " + e.getMessage() + " — it looks again after the next reply"));
            return;
        }
        after.lines().forEach(line -> events.emit(new AgentEvent.Info(line, true)));
        after.question().ifPresent(q -> events.emit(new AgentEvent.MessageToUser(thought.tickId(), q.noteId(), q.text())));
        if (after.changed()) wake.settingsChanged();
    }
}
