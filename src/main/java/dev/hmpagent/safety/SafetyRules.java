package dev.hmpagent.safety;

import dev.hmpagent.text.Json;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The behavioural breakers of issue 8 as pure logic: no database, no I/O, no threads. The caller tells it what
 * happened ({@link #beforeCommand}, {@link #after}, {@link #personMessage}, {@link #newInput}, {@link #unlock}),
 * stores {@link #toJson()} in the same transaction as the operation it counted, and acts on the {@link Verdict}.
 * Not thread-safe: one owner (the tick thread) feeds it.
 *
 * <h2>Vocabulary</h2>
 * <ul>
 *   <li>A <b>window operation</b> is an {@link #after} of a {@link Kind#COMMAND} (success or failure), a failed
 *       {@link Kind#FATAL_LLM}, or a {@link Kind#CHANT} (a reply cut for chanting: always a failure, whatever
 *       {@code failed} says). A format slip of the model's (an unreadable command block) is none: it never
 *       reaches these rules (issue 22: the two-corrections rule of {@code commands.FormatSlips} replaces them).
 *       {@link Kind#TRANSIENT_LLM} and a FATAL_LLM with {@code failed == false} change nothing and return NONE.
 *       A command refused by {@link #beforeCommand} did not run and is not a window operation.</li>
 *   <li>An <b>epoch</b> starts at construction and at every {@link #unlock()}; nothing is counted across epochs.</li>
 *   <li>The <b>progress sequence</b> is the list of progressKeys of COMMAND operations (success or failure, a null
 *       key skipped) since the last {@link #newInput()}, {@link #personMessage()} or {@link #unlock()}.</li>
 * </ul>
 *
 * <h2>Rules</h2>
 * <ol>
 *   <li><b>repeat</b> ({@link RepeatRule}) — failures of one fingerprint in a row (refused attempts included):
 *       the {@code alertAt}-th → ALERT with {@link #REPEAT_ALERT}, {@code lockAt} → LOCKOUT, and {@link
 *       #beforeCommand} refuses the attempt that would reach it; a new error after an edit starts the streak again.
 *       FATAL_LLM and CHANT never form streaks (the chant and cascade rules count them).</li>
 *   <li><b>cascade</b> ({@link FailureWindow}) — after a window operation, among the last {@code windowSize} window operations of the
 *       epoch (fewer if fewer happened), {@code windowFailures} or more failures → ERROR_PAUSE. A level, not an
 *       edge: every window operation while it holds gets it. With the defaults, eight failures in a row pause at
 *       the eighth, whatever their fingerprints. Person messages and new input do not clear the window.</li>
 *   <li><b>chant</b> — the CHANT operations of the task (since the last {@link #personMessage()} or
 *       {@link #unlock()}): the one that brings them to {@code chantPauseAt} or more → ERROR_PAUSE (issue 23: a
 *       second chanting reply in a task pauses at once); each one before → ALERT naming chanting.</li>
 *   <li><b>the task ledger</b> ({@link TaskLedger}, issue 33) — a COMMAND's progressKey is the state its result
 *       shows ({@link ResultState}); progress is a success reaching a state this task has not seen before. On it:
 *       <ul>
 *         <li><b>poll</b> — a success whose state is the same as the last two → HINT (wait with a wake condition
 *             instead); <b>no-progress</b> — {@link #called()} counts the LLM calls since the last progress: the
 *             first COMMAND at or past {@code noProgressAlert} of them → ALERT (once per run); {@link #beforeCall()}
 *             at {@code noProgressStop} → REST when the last states were polls of one result (the calls then
 *             count from {@code noProgressAlert} again after it), otherwise LOCKOUT;</li>
 *         <li><b>cycle</b> — over the recent states (repeats in a row collapsed): for the shortest period p of 2 to
 *             {@link TaskLedger#LONGEST_CYCLE} whose last p states differ, the run of states each equal to the one p
 *             before; a COMMAND that adds a state and makes that run exactly {@code loopAlertAt · p} long → ALERT
 *             (A,B,A,B,A,B), {@code loopLockAt · p} or more → LOCKOUT, whichever commands reached the states;</li>
 *         <li><b>talk</b> — a message to a person is no state: the {@code talkRestAt}-th since the last progress or
 *             person's message → REST until a person answers.</li>
 *       </ul></li>
 *   <li><b>thrash</b> ({@link ThrashRule}) — the COMMANDs since the last progress, {@link #newInput()}, {@link
 *       #personMessage()} or {@link #unlock()} (a progress itself not included, and it gives NONE). With W the last
 *       {@code thrashWindow} of the run and F its failures: the run at least {@code thrashWindow} long and F at
 *       least {@code thrashFailures} → ERROR_PAUSE (a level); F at least ⌈thrashFailures / 2⌉ with W at least
 *       ⌈thrashWindow / 2⌉ long → ALERT, once per run.</li>
 * </ol>
 * When several rules are due on one operation the strongest action wins (ERROR_PAUSE > LOCKOUT > REST > ALERT >
 * HINT > NONE);
 * between equal actions the rule named first above wins (so a failure that is both the third repeat and the third
 * identical result carries {@link #REPEAT_ALERT}). Every rule is checked on every operation: none returns early.
 *
 * <h2>Resets</h2>
 * {@link #personMessage()} starts a new task: the ledger, every failure streak, the task's chants and the thrash run
 * afresh; {@link #newInput()} is news (as progress is) and ends the cycles; {@link #unlock()} starts a new epoch
 * (everything).
 */
public final class SafetyRules {
    /** The row result the LLM sees at the third identical failure. */
    public static final String REPEAT_ALERT = "SYSTEM ALERT: You are repeating a failed action. STOP and analyze why.";
    public static final String RULE_REPEAT = "repeat";
    public static final String RULE_CASCADE = "cascade";
    public static final String RULE_CHANT = "chant";
    public static final String RULE_NO_PROGRESS = "no-progress";
    public static final String RULE_OSCILLATION = "cycle";
    public static final String RULE_POLL = "poll";
    public static final String RULE_TALK = "talk";
    public static final String RULE_THRASH = "thrash";

    /**
     * @param alertAt        the failure of one fingerprint that alerts (3)
     * @param lockAt         the attempt of one fingerprint that is refused and locks (5)
     * @param windowSize     how many window operations the cascade looks back on (10)
     * @param windowFailures failures among them that pause (8)
     * @param chantPauseAt   replies cut for chanting in one task that pause (2)
     * @param loopAlertAt    rounds of a cycle over states that alert (3)
     * @param loopLockAt     rounds that lock (5)
     * @param thrashWindow   commands since the last progress the thrash rule looks back on (20)
     * @param thrashFailures failures among them that pause (10; half of them among half as many commands alert)
     * @param noProgressAlert LLM calls since the last progress that alert (10)
     * @param noProgressStop  calls since the last progress that stop: a rest when they polled one result, else a
     *                        lockout (20)
     * @param talkRestAt      messages to people since the last progress or a person's message that rest the agent
     *                        until a person answers (5)
     */
    public record Limits(int alertAt, int lockAt, int windowSize, int windowFailures, int chantPauseAt,
                         int loopAlertAt, int loopLockAt, int thrashWindow, int thrashFailures, int noProgressAlert,
                         int noProgressStop, int talkRestAt) {
        public static final Limits DEFAULTS = new Limits(3, 5, 10, 8, 2, 3, 5, 20, 10, 10, 20, 5);

        /** The limits of before the ledger, its own at their defaults. */
        public Limits(int alertAt, int lockAt, int windowSize, int windowFailures, int chantPauseAt, int loopAlertAt,
                      int loopLockAt, int thrashWindow, int thrashFailures) {
            this(alertAt, lockAt, windowSize, windowFailures, chantPauseAt, loopAlertAt, loopLockAt, thrashWindow,
                    thrashFailures, 10, 20, 5);
        }

        public Limits {
            if (alertAt < 1) throw new IllegalArgumentException("alertAt must be at least 1, was " + alertAt);
            if (lockAt < 2) throw new IllegalArgumentException("lockAt must be at least 2, was " + lockAt);
            if (windowSize < 1) throw new IllegalArgumentException("windowSize must be at least 1, was " + windowSize);
            if (windowFailures < 1 || windowFailures > windowSize) {
                throw new IllegalArgumentException("windowFailures must be 1.." + windowSize + ", was " + windowFailures);
            }
            if (chantPauseAt < 1) throw new IllegalArgumentException("chantPauseAt must be at least 1, was " + chantPauseAt);
            if (thrashFailures < 1 || thrashFailures > thrashWindow) {
                throw new IllegalArgumentException("thrashFailures must be 1.." + thrashWindow + ", was " + thrashFailures);
            }
            if (loopAlertAt < 2) throw new IllegalArgumentException("loopAlertAt must be at least 2, was " + loopAlertAt);
            if (loopLockAt < 2) throw new IllegalArgumentException("loopLockAt must be at least 2, was " + loopLockAt);
            if (noProgressAlert < 1 || noProgressStop <= noProgressAlert) {
                throw new IllegalArgumentException("noProgressStop must be above noProgressAlert (at least 1), were "
                        + noProgressStop + " and " + noProgressAlert);
            }
            if (talkRestAt < 1) throw new IllegalArgumentException("talkRestAt must be at least 1, was " + talkRestAt);
        }
    }

    /** What an operation was. TRANSIENT_LLM never enters any count. */
    public enum Kind { COMMAND, FATAL_LLM, TRANSIENT_LLM, CHANT }

    /**
     * @param fingerprint the command's {@link Fingerprint#ofCommand} (failures of one fingerprint form a streak);
     *                    for FATAL_LLM/CHANT a failure fingerprint (kept for the caller, not counted); may be
     *                    null except for a COMMAND
     * @param progressKey for a COMMAND: {@link ResultState#of}, the state its result shows; null for other kinds
     *                    (and for a command whose result is not known, which then enters no state)
     */
    public record Operation(Kind kind, boolean failed, String fingerprint, String progressKey) {
        public Operation {
            Objects.requireNonNull(kind, "kind");
            if (kind == Kind.COMMAND) Objects.requireNonNull(fingerprint, "fingerprint");
        }

        public static Operation commandSucceeded(String fingerprint, String progressKey) {
            return new Operation(Kind.COMMAND, false, fingerprint, progressKey);
        }

        public static Operation commandFailed(String fingerprint, String progressKey) {
            return new Operation(Kind.COMMAND, true, fingerprint, progressKey);
        }

        public static Operation fatalLlm(String failureFingerprint) {
            return new Operation(Kind.FATAL_LLM, true, failureFingerprint, null);
        }

        public static Operation transientLlm(String failureFingerprint) {
            return new Operation(Kind.TRANSIENT_LLM, true, failureFingerprint, null);
        }

        public static Operation chant(String failureFingerprint) {
            return new Operation(Kind.CHANT, true, failureFingerprint, null);
        }
    }

    /** In order of strength: a later constant beats an earlier one. */
    public enum Action { NONE, HINT, ALERT, REST, LOCKOUT, ERROR_PAUSE }

    /**
     * @param action what the caller must do
     * @param rule   the rule that asked for it (one of the RULE_ constants), empty for NONE
     * @param reason the text for the row's result, the audit and the alert command, empty for NONE
     */
    public record Verdict(Action action, String rule, String reason) {
        private static final Verdict NONE = new Verdict(Action.NONE, "", "");

        public Verdict {
            Objects.requireNonNull(action, "action");
            Objects.requireNonNull(rule, "rule");
            Objects.requireNonNull(reason, "reason");
        }

        public static Verdict none() {
            return NONE;
        }

        /** The stronger of the two; this one on a tie. */
        Verdict or(Verdict other) {
            return other.action.compareTo(action) > 0 ? other : this;
        }
    }

    /** Read-only use (readTree) is thread-safe; one built per read cost more than reading the state. */
    private static final ObjectMapper JSON = Json.mapper();

    private final Limits limits;
    private final TaskLedger ledger = new TaskLedger();
    private final RepeatRule repeat;
    private final FailureWindow window;
    private final ThrashRule thrash;

    /** Empty state. */
    public SafetyRules(Limits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.repeat = new RepeatRule(limits, ledger);
        this.window = new FailureWindow(limits);
        this.thrash = new ThrashRule(limits.thrashWindow(), limits.thrashFailures());
    }

    /** Before a command runs: LOCKOUT (the refused attempt counts as a failure of its streak) or NONE (no change). */
    public Verdict beforeCommand(String fingerprint) {
        return repeat.before(Objects.requireNonNull(fingerprint, "fingerprint"));
    }

    /** After an operation: the strongest verdict due. */
    public Verdict after(Operation op) {
        Objects.requireNonNull(op, "op");
        boolean chant = op.kind() == Kind.CHANT;
        boolean entersWindow = op.kind() == Kind.COMMAND || chant || (op.kind() == Kind.FATAL_LLM && op.failed());
        if (!entersWindow) return Verdict.none();
        window.add(op.failed(), chant);

        Verdict verdict = window.cascade();
        if (op.kind() == Kind.COMMAND) {
            String key = op.progressKey();
            verdict = verdict.or(repeat.after(op, key == null || ledger.seen(key)));
            boolean progress = key != null && ledger.enter(key, op.failed());
            if (ledger.grew()) verdict = verdict.or(ledger.cycleVerdict(limits));
            if (ResultState.isTalk(key)) verdict = verdict.or(ledger.talk(limits));
            if (!op.failed() && ResultState.isState(key) && ledger.same() == TaskLedger.POLLS) {
                verdict = verdict.or(TaskLedger.POLL_HINT);
            }
            if (!progress && ledger.alertCalls(limits.noProgressAlert())) verdict = verdict.or(ledger.callsAlert(limits));
            verdict = verdict.or(thrash.after(op, progress));
        }
        return chant ? verdict.or(window.chant()) : verdict;
    }

    /** How many times {@code fingerprint} has failed in its current streak (0 when none). */
    public int streakOf(String fingerprint) {
        return repeat.streakOf(fingerprint);
    }

    /** A new message from a person or the CLI: failure streaks end, no-progress detection starts afresh. */
    public void personMessage() {
        repeat.clear();
        window.newTask();
        ledger.clear();
        thrash.movedOn();
    }

    /** Any new input (a note from anyone): news, as progress is; the calls without progress and the cycles end. */
    public void newInput() {
        ledger.newInput();
        thrash.movedOn();
    }

    /** One LLM call of the task was made: one more since the last progress. */
    public void called() {
        ledger.called();
    }

    /**
     * Before an LLM call of the task: at {@code noProgressStop} calls since the last progress, REST when the last states
     * were polls of one unchanged result (the calls count from {@code noProgressAlert} again after it), otherwise
     * LOCKOUT; NONE below it.
     */
    public Verdict beforeCall() {
        return ledger.beforeCall(limits);
    }

    /** The rests for polling in this run without progress, this one included (each is twice the one before). */
    public int pollRests() {
        return ledger.rests();
    }

    /** A human unlock: everything starts afresh. */
    public void unlock() {
        personMessage();
        window.clear();
        thrash.clear();
    }

    /**
     * The state as compact JSON with a fixed field order and sorted maps, so equal states give equal text:
     * {@code {"streaks":{fp:n},"window":"SF…" (oldest first),"chants":n,"marks":{fp:n},"ledger":{…},…thrash}}.
     */
    public String toJson() {
        return json(true);
    }

    /**
     * The state as {@link #toJson()} writes it but for the task's states seen, which are stored apart: what they
     * became since they were last stored is {@link #ledgerChanges()}.
     */
    String toStoredJson() {
        return json(false);
    }

    private String json(boolean withSeen) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode root = f.objectNode();
        repeat.writeStreaks(root);
        window.write(root);
        repeat.writeMarks(root);
        ledger.write(root, withSeen);
        thrash.write(root);
        return root.toString();
    }

    /** How the task's states seen changed since they were last stored (or read), for the caller to store. */
    TaskLedger.Changes ledgerChanges() {
        return ledger.changes();
    }

    /** The state {@link #toJson()} wrote; {@code "{}"}, blank, null or unreadable text gives the empty state. */
    public static SafetyRules fromJson(Limits limits, String json) {
        return fromStored(limits, json, List::of);
    }

    /**
     * The state {@link #toStoredJson()} wrote, with the task's states seen as stored apart ({@code seen}, oldest first,
     * asked only when the text holds none). Text written before they were stored apart holds them: they are taken
     * from it and given to the next {@link #ledgerChanges()}, so they move. Unreadable text, or states that do not fit,
     * give the empty state.
     */
    static SafetyRules fromStored(Limits limits, String json, Supplier<List<String>> seen) {
        SafetyRules rules = new SafetyRules(limits);
        try {
            if (json == null || json.isBlank()) throw new IllegalArgumentException("no text");
            if (rules.read(JSON.readTree(json))) rules.ledger.moveSeenApart();
            else rules.ledger.seen(seen.get());
            return rules;
        } catch (JsonProcessingException | IllegalArgumentException unreadable) {
            // start afresh rather than not at all; the states stored apart go too, at the next store
            SafetyRules afresh = new SafetyRules(limits);
            afresh.ledger.clear();
            return afresh;
        }
    }

    /** True when the text held the task's states seen. */
    private boolean read(JsonNode root) {
        if (!root.isObject()) throw new IllegalArgumentException("not an object");
        repeat.read(root);
        window.read(root);
        // "progress", "recent", "cycle2", "cycle3" (before issue 33): the ledger replaced them
        boolean withSeen = ledger.read(root);
        thrash.read(root);
        return withSeen;
    }
}
