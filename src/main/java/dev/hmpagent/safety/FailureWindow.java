package dev.hmpagent.safety;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;

/**
 * The <b>cascade</b> and <b>chant</b> rules of {@link SafetyRules}: the outcomes of the last window operations of the
 * epoch, and the replies cut for chanting in this task. Not thread-safe: its rules' owner feeds it.
 */
final class FailureWindow {
    private final SafetyRules.Limits limits;
    /** The last {@code windowSize} window operations, oldest first: true for a failure. */
    private final Deque<Boolean> window = new ArrayDeque<>();
    /** Replies cut for chanting in this task (since the last person's message or unlock). */
    private int taskChants;

    FailureWindow(SafetyRules.Limits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    /** A window operation: {@code failed} (a chant always is), one more chant of the task when {@code chant}. */
    void add(boolean failed, boolean chant) {
        window.addLast(chant || failed);
        while (window.size() > limits.windowSize()) window.removeFirst();
        if (chant) taskChants++;
    }

    /** ERROR_PAUSE while {@code windowFailures} or more of the window failed (a level, not an edge); else NONE. */
    SafetyRules.Verdict cascade() {
        long failures = window.stream().filter(Boolean::booleanValue).count();
        if (failures < limits.windowFailures()) return SafetyRules.Verdict.none();
        return new SafetyRules.Verdict(SafetyRules.Action.ERROR_PAUSE, SafetyRules.RULE_CASCADE, "error cascade: "
                + failures + " of the last " + window.size() + " operations failed; paused until a human unlocks");
    }

    /** After a chant: ERROR_PAUSE at {@code chantPauseAt} chants in the task, an ALERT naming chanting before. */
    SafetyRules.Verdict chant() {
        if (taskChants >= limits.chantPauseAt()) {
            // what a person reads when the agent stops asking: why, and what to do (a small model loops; issue 35)
            return new SafetyRules.Verdict(SafetyRules.Action.ERROR_PAUSE, SafetyRules.RULE_CHANT, "chanting: this"
                    + " model repeats itself (" + taskChants + " replies in this task were cut where they began to"
                    + " loop): try a larger model, /model NAME; paused until a human unlocks");
        }
        return new SafetyRules.Verdict(SafetyRules.Action.ALERT, SafetyRules.RULE_CHANT, "SYSTEM ALERT: chanting."
                + " Your reply started repeating the same text over and over and was cut there (chanting reply "
                + taskChants + " of this task; at " + limits.chantPauseAt() + " the agent pauses until a person"
                + " unlocks it). Do not repeat yourself: say something new in a few words, or use idle.");
    }

    /** A new task: its chants start again (the window goes on). */
    void newTask() {
        taskChants = 0;
    }

    /** An unlock: the window starts afresh. */
    void clear() {
        window.clear();
    }

    /** Its part of the rules' JSON: {@code "window":"SF…"} (oldest first) and {@code "chants":n}. */
    void write(ObjectNode root) {
        root.put("window", RulesJson.outcomes(window));
        root.put("chants", taskChants);
    }

    /** What {@link #write} wrote. */
    void read(JsonNode root) {
        RulesJson.readOutcomes(root.path("window"), window);
        while (window.size() > limits.windowSize()) window.removeFirst();
        // "chants" counted replies in a row before issue 23, in this task since; "anomalies" (before 22): dropped
        taskChants = RulesJson.count(root.path("chants"));
    }
}
