package dev.hmpagent.cycle;

import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.safety.SafetyStatus;
import dev.hmpagent.safety.StopSignal;
import dev.hmpagent.store.HaltFlag;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Asked first thing in every loop iteration, on the tick thread: may the agent think? Only when the
 * persisted safety state, read through the {@link StopSignal}, is ACTIVE. Says once when the state changes (stopped, and by whom; active again).
 */
public final class SafetyGate {
    private final StopSignal stops;
    private final EventSink events;
    private SafetyStatus last;   // tick thread only

    private final HaltFlag flag;
    private boolean flagSaid;

    /** Given the state read, ends the reflex's rest when it is due and returns the state after (the cycle's). */
    private final UnaryOperator<SafetyStatus> restEnd;

    /** @param flag a halt that could not be written to the file, obeyed all the same */
    public SafetyGate(StopSignal stops, HaltFlag flag, EventSink events) {
        this(stops, flag, events, UnaryOperator.identity());
    }

    /** @param restEnd {@link Cycle#endRestIfDue}: a rest whose time is up, or that a person's message ends, ends here */
    public SafetyGate(StopSignal stops, HaltFlag flag, EventSink events, UnaryOperator<SafetyStatus> restEnd) {
        this.restEnd = Objects.requireNonNull(restEnd, "restEnd");
        this.stops = Objects.requireNonNull(stops, "stops");
        this.flag = Objects.requireNonNull(flag, "flag");
        this.events = Objects.requireNonNull(events, "events");
    }

    /** Reads the state (one indexed row); true when the agent may think. */
    public boolean mayThink() {
        if (flag.raised()) {
            if (!flagSaid) {
                events.emit(new AgentEvent.Problem("halted (" + flag.file().getFileName() + ": the file could not take"
                        + " the halt): the agent does not think until a person runs `agent unlock`"));
                flagSaid = true;
            }
            return false;
        }
        flagSaid = false;
        SafetyStatus now = restEnd.apply(stops.persisted());
        SafetyStatus before = last;
        last = now;
        if (before == null ? !now.active() : !before.label().equals(now.label())) {
            events.emit(now.active() ? new AgentEvent.Info("active again: thinking resumes")
                    : new AgentEvent.Problem(describe(now)));
        }
        return now.active();
    }

    /** Whether the last read found the reflex's rest (which ends by itself: no reason to end a run on it). */
    public boolean resting() {
        return !flagSaid && last != null && last.resting();
    }

    /** One line for a state that keeps the agent from thinking. */
    public static String describe(SafetyStatus s) {
        String what = s.label() + " since " + s.since() + (s.detail().isEmpty() ? "" : " (" + s.detail() + ")");
        if (s.resting()) {
            return what + ": the agent rests until " + s.until().orElseThrow() + "; a message from a person, or"
                    + " `agent unlock` (or /unlock), ends the rest sooner";
        }
        return what + ": the agent does not think until a person runs `agent unlock` (or /unlock)";
    }
}
