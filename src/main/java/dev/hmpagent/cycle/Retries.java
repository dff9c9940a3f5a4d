package dev.hmpagent.cycle;

import dev.hmpagent.context.AssembledPrompt;
import dev.hmpagent.cycle.CycleStatus.Trouble;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.llm.Backoff;
import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.RetryableLlmException;
import dev.hmpagent.store.LlmCall;
import dev.hmpagent.store.StoreException;
import dev.hmpagent.text.Text;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Trouble, retry and back-off: how a failed tick is recorded and said, how many failures came in a row, and when the
 * next try is due. Tick thread only; the trouble it puts in the cycle's status is read from anywhere.
 */
public final class Retries {
    private final Clock clock;
    /** Where the back-off is measured: the monotonic clock (the wall clock only dates what is shown and stored). */
    private final TimeSource time;
    private final Backoff backoff;
    private final StatusCell status;
    private final TickWriter writer;
    private final EventSink events;
    private final LlmBreakers breakers;

    private int consecutiveFailures;
    /** When the next try is due while backing off; null when none is. */
    private Retry retry;
    /** When ({@link TimeSource#nanoTime()}) the trouble in the status began: the give-up time counts from there. */
    private long troubleSince;

    /** The next try: {@code at} as shown, {@code due} on {@link TimeSource#nanoTime()} (what the wait is measured on). */
    private record Retry(Instant at, long due) { }

    public Retries(Clock clock, TimeSource time, Backoff backoff, StatusCell status, TickWriter writer, EventSink events,
            LlmBreakers breakers) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.time = Objects.requireNonNull(time, "time");
        this.backoff = Objects.requireNonNull(backoff, "backoff");
        this.status = Objects.requireNonNull(status, "status");
        this.writer = Objects.requireNonNull(writer, "writer");
        this.events = Objects.requireNonNull(events, "events");
        this.breakers = Objects.requireNonNull(breakers, "breakers");
    }

    /** Whether a back-off is still running. */
    boolean backingOff() {
        return retry != null && time.nanoTime() - retry.due() < 0;
    }

    /** Draining: what the loop does about the trouble now (nothing, wait for the next try, or end). */
    DrainWait drainWait(Duration giveUp) {
        long now = time.nanoTime();
        Trouble trouble = status.get().trouble();
        return DrainWait.of(trouble, now, retry == null ? now : retry.due(), trouble == Trouble.NONE ? now : troubleSince,
                giveUp);
    }

    /** A reply was written: the failures in a row are over (the status says so with the tick). */
    void succeeded() {
        consecutiveFailures = 0;
        retry = null;
    }

    /** Nothing to think about and no failed call waiting: the file reads fine, the trouble is over. */
    void settled() {
        consecutiveFailures = 0;
        if (status.get().trouble() != Trouble.NONE) status.update(CycleStatus::untroubled);
    }

    /** A refused request is tried again (a new message came): it starts a new count. */
    void resetCount() {
        consecutiveFailures = 0;
    }

    /** What the failures were about is gone (a halt dropped the reply that waited): no back-off, no trouble. */
    void forget() {
        retry = null;
        consecutiveFailures = 0;
        status.update(CycleStatus::untroubled);
    }

    /**
     * Backs off after a failure that arrived just now: the wait counts from this moment, not from the tick's start,
     * so a server that took 3 s to fail still gets the whole pause, and a Retry-After is never cut short by the time
     * the request took.
     */
    Duration schedule(Trouble trouble, long tickId, Optional<Duration> retryAfter, String error) {
        Instant now = clock.instant();
        long nanos = time.nanoTime();
        CycleStatus before = status.get();
        // as the status keeps the trouble's start: while the same trouble goes on
        if (before.trouble() != trouble || before.troubleSince().isEmpty()) troubleSince = nanos;
        consecutiveFailures++;
        Duration delay = backoff.delay(consecutiveFailures, retryAfter);
        Instant at = now.plus(delay);
        retry = new Retry(at, nanos + delay.toNanos());
        status.update(s -> s.failing(trouble, now, tickId, Optional.of(at), error));
        return delay;
    }

    /** The file cannot even be read (locked, gone): nothing can be logged to it; says so and backs off. */
    TickResult unreadable(RuntimeException e) {
        if (e instanceof StoreException se && se.damaged()) return damaged(se);
        Duration delay = schedule(Trouble.STORE, status.get().lastTickId(), Optional.empty(), e.getMessage());
        events.emit(new AgentEvent.Problem("cannot read " + e.getMessage() + " — trying again in "
                + Text.duration(delay)));
        return TickResult.IDLE;
    }

    /** The main call failed: recorded, said, and answered by a stop, a wait for a person, or a back-off. */
    TickResult llmFailed(long tickId, Instant start, String reason, AssembledPrompt prompt, MainCall call,
                         List<LlmCall> calls, LlmException e) {
        if (e.quotaExhausted() || !e.retryable()) {
            // no LLM left with credit (another would have taken over): stop until a start with another configuration;
            // or asking again unchanged would be refused again: wait for the person (a new message) or a restart
            retry = null;
            status.update(s -> s.failing(Trouble.LLM_REJECTED, start, tickId, Optional.empty(), e.getMessage()));
            writer.writeLlmFailure(tickId, start, reason, prompt, call.endpoint(), call.model(), calls, e);
            if (e.quotaExhausted()) {
                // what releases the stop is said with it, by the safety monitor's line
                events.emit(new AgentEvent.Problem(e.getMessage() + " — the agent is stopped (quota); your messages"
                        + " stay queued"));
                breakers.quotaExhausted(e.getMessage());
            } else {
                events.emit(new AgentEvent.Problem(e.getMessage() + " — the LLM is not asked again until you send"
                        + " a new message or restart the agent; your messages stay queued"));
            }
            return new TickResult(true, tickId, "llm_error");
        }
        Optional<Duration> retryAfter = e instanceof RetryableLlmException r ? r.retryAfter() : Optional.empty();
        Duration delay = schedule(Trouble.LLM_UNAVAILABLE, tickId, retryAfter, e.getMessage());
        writer.writeLlmFailure(tickId, start, reason, prompt, call.endpoint(), call.model(), calls, e);
        events.emit(new AgentEvent.Retrying(e.getMessage() + " — retrying in " + Text.duration(delay)
                + "; your messages stay queued", consecutiveFailures, retry == null ? null : retry.at()));
        return new TickResult(true, tickId, "llm_error");
    }

    /** The tick boundary: one bad tick is recorded (if the file lets it) and said, and the loop backs off. */
    TickResult tickFailed(long tickId, Instant start, String reason, RuntimeException e) {
        if (e instanceof StoreException se && se.damaged()) return damaged(se);
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        Trouble trouble = e instanceof StoreException ? Trouble.STORE : Trouble.ERROR;
        Duration delay = schedule(trouble, tickId, Optional.empty(), message);
        try {
            writer.writeTickError(tickId, start, "error", reason, message);
        } catch (RuntimeException again) {   // already failing: the second failure is added to the line, not thrown
            message = message + " (and the tick could not be logged: " + again.getMessage() + ")";
        }
        events.emit(new AgentEvent.Problem("tick " + tickId + " failed: " + message + " — trying again in "
                + Text.duration(delay)));
        return new TickResult(true, tickId, "error");
    }

    /** The file refused the reply of {@code tickId}: kept in memory, and written when the file takes writes. */
    TickResult keptUnwritten(long tickId, StoreException e) {
        Duration delay = schedule(Trouble.STORE, status.get().lastTickId(), Optional.empty(), e.getMessage());
        events.emit(new AgentEvent.Problem(e.getMessage() + " — the reply of tick " + tickId
                + " is kept and written when the file takes writes; trying again in " + Text.duration(delay)
                + ", without asking the LLM again"));
        return new TickResult(true, tickId, "store_error");
    }

    /** The file refused a command's write: the commands of {@code tickId} not run yet wait for the next try. */
    void commandsWait(long tickId, StoreException e) {
        Duration delay = schedule(Trouble.STORE, tickId, Optional.empty(), e.getMessage());
        events.emit(new AgentEvent.Problem(e.getMessage() + " — the commands of tick " + tickId
                + " that have not run yet wait; trying again in " + Text.duration(delay)));
    }

    /** The file is damaged: nothing the loop can do will help. */
    TickResult damaged(StoreException e) {
        events.emit(new AgentEvent.Problem(e.getMessage()));
        return TickResult.fatal(status.get().lastTickId(), "database_damaged");
    }
}
