package dev.hmpagent.cycle;

import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.safety.SafetyStatus;
import dev.hmpagent.safety.StopSignal;
import dev.hmpagent.store.HaltFlag;
import java.util.Objects;

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

    /** @param flag a halt that could not be written to the file, obeyed all the same */
    public SafetyGate(StopSignal stops, HaltFlag flag, EventSink events) {
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
        SafetyStatus now = stops.persisted();
        SafetyStatus before = last;
        last = now;
        if (before == null ? !now.active() : !before.label().equals(now.label())) {
            events.emit(now.active() ? new AgentEvent.Info("active again: thinking resumes")
                    : new AgentEvent.Problem(describe(now)));
        }
        return now.active();
    }

    /** One line for a state that keeps the agent from thinking. */
    public static String describe(SafetyStatus s) {
        return s.label() + " since " + s.since() + (s.detail().isEmpty() ? "" : " (" + s.detail() + ")")
                + ": the agent does not think until a person runs `agent unlock` (or /unlock)";
    }
}
