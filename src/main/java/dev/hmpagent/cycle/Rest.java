package dev.hmpagent.cycle;

import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.SafetyStatus;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The reflex's rest as the cycle waits it out: its end is stored as wall time and waited for on the monotonic clock;
 * a rest whose time is up, or that a person's message ends, ends here (audited), and the LLM is woken once. Tick
 * thread only.
 */
public final class Rest {
    /** The longest rest a drain waits out: a poll's or the reflex's; one that waits for a person ends the drain. */
    static final Duration WAITED = Duration.ofHours(1);

    /** The persisted safety state on the tick thread's connection. */
    private final SafetyControl control;
    /** The end of the rest, waited for on the monotonic clock. */
    private final WallDeadline end;
    private final WakeRule wake;

    public Rest(SafetyControl control, Clock clock, TimeSource time, WakeRule wake) {
        this.control = Objects.requireNonNull(control, "control");
        this.end = new WallDeadline(clock, time);
        this.wake = Objects.requireNonNull(wake, "wake");
    }

    /**
     * Until when ({@link TimeSource#nanoTime()}) a rest that ends by itself within {@link #WAITED} holds the task (a
     * wait that polls rests, and goes on); -1 when there is none such.
     */
    long heldUntil() {
        SafetyStatus s = control.current();
        if (!s.resting()) return -1;
        Duration length = Duration.between(s.since(), s.until().orElseThrow());
        if (length.compareTo(WAITED) > 0) return -1;
        end.passed(s, s.until().orElseThrow(), length);   // the same wait the rest's end is measured by
        return end.due();
    }

    /**
     * While the persisted state {@code now} keeps the agent from thinking: when it is the reflex's rest and its time is
     * up or a person's message waits, the rest ends (audited) and, at its time, the LLM is woken once. Returns the
     * state after.
     */
    SafetyStatus endIfDue(SafetyStatus now) {
        if (!now.resting()) return now;
        // the rest's end is stored as wall time; its length is waited out on the monotonic clock
        Optional<String> ended = control.endRestIfDue(s -> end.passed(s, s.until().orElseThrow(),
                Duration.between(s.since(), s.until().orElseThrow())));
        if (ended.isEmpty()) return now;
        wake.restEnded(ended.get());
        wake.settingsChanged();   // the reflex's items for the next prompt are read again
        return control.current();
    }
}
