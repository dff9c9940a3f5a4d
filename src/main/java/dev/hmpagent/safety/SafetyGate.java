package dev.hmpagent.safety;

import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.text.ShortTime;
import java.time.Clock;
import java.util.Optional;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import dev.hmpagent.store.SafetyDao;

/**
 * Asked first thing in every loop iteration, on the tick thread: may the agent think? Only when the
 * persisted safety state, read through the {@link StopSignal} (the file's, and a halt the file could not take), is
 * ACTIVE. Says once when the state changes: a halt, a stop found at the start, active again (with the unlock's reason);
 * the monitor's own stops it said itself.
 */
public final class SafetyGate {
    private final StopSignal stops;
    private final EventSink events;
    private SafetyStatus last;   // tick thread only

    /** Given the state read, ends the reflex's rest when it is due and returns the state after (the cycle's). */
    private final UnaryOperator<SafetyStatus> restEnd;
    private final Supplier<Optional<SafetyDao.Audit>> lastMove;

    public SafetyGate(StopSignal stops, EventSink events) {
        this(stops, events, UnaryOperator.identity());
    }

    /** @param restEnd the cycle's end of a rest: a rest whose time is up, or that a person's message ends, ends here */
    public SafetyGate(StopSignal stops, EventSink events, UnaryOperator<SafetyStatus> restEnd) {
        this(stops, events, restEnd, Optional::empty);
    }

    /** @param lastMove the newest audit row of the safety state: who unlocked, from which process, and why */
    public SafetyGate(StopSignal stops, EventSink events, UnaryOperator<SafetyStatus> restEnd,
                      Supplier<Optional<SafetyDao.Audit>> lastMove) {
        this.lastMove = Objects.requireNonNull(lastMove, "lastMove");
        this.restEnd = Objects.requireNonNull(restEnd, "restEnd");
        this.stops = Objects.requireNonNull(stops, "stops");
        this.events = Objects.requireNonNull(events, "events");
    }

    /** Reads the state (the halt flag's file, then one indexed row); true when the agent may think. */
    public boolean mayThink() {
        SafetyStatus now = restEnd.apply(stops.persisted());
        SafetyStatus before = last;
        last = now;
        if (before == null ? !now.active() : !before.label().equals(now.label())) {
            if (now.active()) {
                activeAgain(now).ifPresent(line -> events.emit(new AgentEvent.Info(line)));
            } else if (before == null || !byMonitor(now)) {
                // the monitor said its own stops the moment it made them, with what releases them: said once
                events.emit(new AgentEvent.Problem(describe(now)));
            }
        }
        return now.active();
    }

    /**
     * "unlocked by ann from another shell: the disk is mounted again; thinking resumes" when a person unlocked (an
     * unlock in this process, the REPL's /unlock, said so itself: empty), else "active again: thinking resumes".
     */
    private Optional<String> activeAgain(SafetyStatus now) {
        Optional<SafetyDao.Audit> unlock = lastMove.get().filter(a -> a.event().equals("unlock"));
        if (unlock.isEmpty()) return Optional.of("active again: thinking resumes");
        SafetyDao.Audit a = unlock.get();
        if (a.pid() == ProcessHandle.current().pid()) return Optional.empty();
        return Optional.of("unlocked by " + a.user() + " from another shell"
                + (now.detail().isBlank() ? "" : ": " + now.detail().strip()) + "; thinking resumes");
    }

    /** Whether the last read found the reflex's rest (which ends by itself: no reason to end a run on it). */
    public boolean resting() {
        return last != null && last.resting();
    }

    /**
     * Whether this process's SafetyMonitor made the stop (and said it): a lockout, a pause, a rest, a budget or quota
     * stop. A halt is a person's, from this shell or another.
     */
    private static boolean byMonitor(SafetyStatus s) {
        return !(s.state() == SafetyState.STOPPED && s.reason().equals(Optional.of(StopReason.HALT)));
    }

    /** One line for a state that keeps the agent from thinking, its times local and short. */
    public static String describe(SafetyStatus s) {
        return describe(s, Clock.systemDefaultZone());
    }

    /** As {@link #describe(SafetyStatus)}, the times in {@code clock}'s zone, short as their distance from it allows. */
    public static String describe(SafetyStatus s, Clock clock) {
        java.util.function.Function<java.time.Instant, String> at = t -> ShortTime.of(t, clock.instant(), clock.getZone());
        String what = s.label() + " since " + at.apply(s.since()) + (s.detail().isEmpty() ? "" : " (" + s.detail() + ")");
        if (s.resting()) {
            return what + ": the agent rests until " + at.apply(s.until().orElseThrow()) + "; a message from a person, or"
                    + " `agent unlock` (or /unlock), ends the rest sooner";
        }
        return what + ": the agent does not think until a person runs `agent unlock` (or /unlock)";
    }
}
