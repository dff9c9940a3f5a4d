package dev.hmpagent.cycle;

import dev.hmpagent.commands.Idle;
import dev.hmpagent.commands.catalogue.IdleCommands;
import dev.hmpagent.context.LiveSettings;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.SettingsDao;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The wake rule: whether the LLM is asked now, and why. Something new from outside (a note past the watermark, a
 * result), the end of the LLM's own idle, or autonomous mode wakes it; its idle, its pause between turns, and a
 * refusal that would only be repeated keep it asleep. Owns what it needs to decide, all of it read and written on
 * the tick thread only.
 */
public final class WakeRule {
    /** The wake reason of a new note. */
    static final String NEW_MESSAGE = "new message";

    /** The wake reason after the reflex's rest: "rest ended: its time is up". */
    static final String REST_ENDED = "rest ended: ";
    private static final NoteFilter PERSON = new NoteFilter(Integer.MIN_VALUE, List.of(), List.of("user"), "");
    private static final NoteFilter PERSON_OR_CLI = new NoteFilter(Integer.MIN_VALUE, List.of(),
            List.of("user", "cli"), "");

    /** Where the pause is measured: the monotonic clock, so a wall clock stepped back does not stretch it. */
    private final TimeSource time;
    /** The end of the LLM's idle, stored as wall time, waited for on the monotonic clock. */
    private final WallDeadline idleEnd;
    /** The settings in force each tick: agent.toml's, with what the LLM set within its bounds. */
    private final LiveSettings settings;
    private final NotesDao notes;
    private final ProcessLogDao processLog;
    /** Where the LLM's idle and pause are stored (by its own commands). */
    private final SettingsDao runtimeSettings;
    /** The longer pause the anti-stagnation reflex imposes while its questions go unanswered (zero for none). */
    private final Supplier<Duration> slowDown;
    private final Duration maxIdle;
    private final EventSink events;
    private final LlmBreakers breakers;

    /** The newest message from a person or the CLI that started a task. */
    private long taskNote;
    /** The newest note of any source seen: a later one is new input. */
    private long inputNote;
    /** The newest note a written reply was shown: a later one wakes the LLM. */
    private long noteWatermark;
    /** While the LLM refuses our requests: the highest note id seen then; only a newer note tries again. */
    private long rejectedAtNote = -1;
    /** Set by the last wake check: the LLM's own idle holds (phase IDLE, no call). */
    private boolean idling;
    /** Set by the last wake check: the LLM's own pause held it back until then ({@link TimeSource#nanoTime()}), or -1. */
    private long pauseEnds = -1;
    /**
     * When ({@link TimeSource#nanoTime()}) the last reply was written: the LLM's pause counts from there; empty before
     * the first of this run, when no pause holds.
     */
    private java.util.OptionalLong lastThought = java.util.OptionalLong.empty();
    /**
     * The LLM's settings as last read. Only its own commands (run on this thread) write them, so they are read again
     * only after commands ran, not on every idle poll of a loop that may run 50 times a second.
     */
    private boolean settingsStale = true;
    private LiveSettings.Snapshot snapshot;
    /** The LLM's idle in force, or null. */
    private Idle idle;
    private Duration pause = Duration.ZERO;
    /** Set when the reflex's rest ran out: the next wake check thinks once, as at the end of the LLM's own idle. */
    private String restEnded;

    public WakeRule(Clock clock, TimeSource time, LiveSettings settings, NotesDao notes, ProcessLogDao processLog, SettingsDao runtimeSettings,
             Supplier<Duration> slowDown, Duration maxIdle, EventSink events, LlmBreakers breakers) {
        this.time = Objects.requireNonNull(time, "time");
        this.idleEnd = new WallDeadline(clock, time);
        this.settings = Objects.requireNonNull(settings, "settings");
        this.notes = Objects.requireNonNull(notes, "notes");
        this.processLog = Objects.requireNonNull(processLog, "processLog");
        this.runtimeSettings = Objects.requireNonNull(runtimeSettings, "runtimeSettings");
        this.slowDown = Objects.requireNonNull(slowDown, "slowDown");
        this.maxIdle = Objects.requireNonNull(maxIdle, "maxIdle");
        this.events = Objects.requireNonNull(events, "events");
        this.breakers = Objects.requireNonNull(breakers, "breakers");
    }

    /**
     * Why the LLM should be called now, or null when there is nothing new. With {@code mayThinkUnprompted} false,
     * autonomous mode does not count as something to think about.
     */
    String reason(boolean mayThinkUnprompted) {
        readSettingsIfChanged();   // what the LLM changed applies from the next tick
        if (rejectedAtNote >= 0) {
            // the LLM refused the last request: asking again unchanged would be refused again
            if (notes.maxUnreadId(NoteFilter.ALL) <= rejectedAtNote) return null;
            rejectedAtNote = -1;
            return NEW_MESSAGE;
        }
        idling = false;
        pauseEnds = -1;
        String afterRest = restEnded;
        restEnded = null;
        if (idle != null) return idleEnded();
        // the LLM's own pause between its turns; a person's message does not wait (asked only while a pause runs:
        // an idle poll of a loop that may run 50 times a second costs no query for it)
        if (lastThought.isPresent() && time.nanoTime() - lastThought.getAsLong() < pause.toNanos()
                && notes.maxUnreadId(PERSON) <= noteWatermark) {
            pauseEnds = lastThought.getAsLong() + pause.toNanos();
            return null;
        }
        if (notes.maxUnreadId(snapshot.settings().noteFilter()) > noteWatermark) return NEW_MESSAGE;
        if (processLog.unseenCount() > 0) return "new results";
        if (afterRest != null) return afterRest;
        if (snapshot.settings().autonomous() && mayThinkUnprompted) return "autonomous";
        return null;
    }

    /** The LLM's idle: why it ended (and it is removed), or null while it holds. */
    private String idleEnded() {
        // idle {seconds: N} is a length of time, not a time of day: it ends N s after it began, whatever the wall says
        Optional<String> ended = idle.ended(idleEnd.passed(idle, idle.until(), maxIdle), notes, processLog);
        if (ended.isEmpty()) {
            idling = true;   // the LLM asked to rest: no call until a wake condition holds
            return null;
        }
        runtimeSettings.remove(Idle.KEY);
        idle = null;
        events.emit(new AgentEvent.Info("idle ended: " + ended.get()));
        return "idle ended: " + ended.get();
    }

    private void readSettingsIfChanged() {
        if (!settingsStale) return;
        snapshot = settings.snapshot();
        idle = Idle.read(runtimeSettings).orElse(null);
        // the LLM's own pause, or a longer one the reflex imposes while its questions go unanswered
        Duration llmPause = IdleCommands.pause(runtimeSettings, maxIdle);
        Duration imposed = slowDown.get();
        pause = imposed.compareTo(llmPause) > 0 ? imposed : llmPause;
        settingsStale = false;
    }

    /**
     * Before a call: takes in what arrived (a message from a person or the CLI starts a task, whose budget counts
     * from zero; any note is new input); returns whether a person's message is among it.
     */
    boolean takeInput() {
        long newest = notes.maxUnreadId(PERSON_OR_CLI);
        boolean personMessage = newest > taskNote;
        if (personMessage) {
            taskNote = newest;
            breakers.newTask(newest);
        }
        long newestNote = notes.maxUnreadId(NoteFilter.ALL);
        if (newestNote > inputNote) {
            inputNote = newestNote;
            breakers.newInput();
        }
        return personMessage;
    }

    /**
     * Whether a message from a person or the CLI waits unread at or under {@code watermark}, the highest note id the
     * prompt presented: the tick thinking now answers it. A message stored while the prompt was built (a piped line
     * taken just after an unlock's note woke the agent) is answered by the next tick, not by this one (issue 35).
     */
    boolean personWaiting(long watermark) {
        long oldest = notes.minUnreadIdExcept(PERSON_OR_CLI, java.util.List.of());
        return oldest > 0 && oldest <= watermark;
    }

    /** A reply was written: its pause counts from now, and the notes it was shown wake nothing again. */
    void thought(long shownUpTo) {
        lastThought = java.util.OptionalLong.of(time.nanoTime());
        noteWatermark = Math.max(noteWatermark, shownUpTo);
    }

    /** The LLM refused the request: it is not asked again until a note newer than every one now unread. */
    void rejected() {
        rejectedAtNote = notes.maxUnreadId(NoteFilter.ALL);
    }

    /** Whether a refusal is being waited out. */
    boolean waitingOutRejection() { return rejectedAtNote >= 0; }

    /**
     * The reflex's rest ended by itself ({@code why}: its time is up, or a person's message, which wakes the LLM anyway):
     * the next check thinks once, like the end of the LLM's own idle.
     */
    void restEnded(String why) { restEnded = REST_ENDED + why; }

    /** A halt (now released): messages it left unanswered are asked about again, even those already shown. */
    void afterHalt() { noteWatermark = 0; }

    /** Commands ran, or the reflex changed something: the settings are read again before the next wake check. */
    void settingsChanged() { settingsStale = true; }

    /** Whether the last check found the LLM's own idle holding. */
    boolean idling() { return idling; }

    /**
     * Draining: until when ({@link TimeSource#nanoTime()}) a hold with a time the LLM set keeps it from thinking, as
     * the last check found it: its {@code idle {seconds}} (its own timer, whatever else it waits for), or its pause
     * while a note or a result waits for it; -1 when none does. An idle given no time (until a note comes or a file
     * changes, bounded only by {@code cycle.max_idle_s}) is not waited for: nothing says it will end soon.
     */
    long heldUntil() {
        if (idling && idle != null && idle.timed()) return idleEnd.due();
        if (pauseEnds >= 0 && (processLog.unseenCount() > 0
                || notes.maxUnreadId(snapshot.settings().noteFilter()) > noteWatermark)) {
            return pauseEnds;
        }
        return -1;
    }

    /** The settings of the tick being thought (read by the last wake check). */
    LiveSettings.Snapshot snapshot() { return snapshot; }

    /** Whether the tick was woken by a new note (from anyone: a person, the CLI, a peer, the system). */
    static boolean newNote(String reason) {
        return reason.equals(NEW_MESSAGE);
    }

    /** Whether the tick was woken by something new from outside (a note, a result), not by the clock or itself. */
    static boolean stimulus(String reason) {
        return !reason.equals("autonomous") && !reason.startsWith("idle ended: the time")
                && !reason.equals(REST_ENDED + dev.hmpagent.safety.SafetyControl.REST_TIME_UP);
    }
}
