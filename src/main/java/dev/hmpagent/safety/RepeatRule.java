package dev.hmpagent.safety;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The <b>repeat</b> rule of {@link SafetyRules}: the streak of a fingerprint is the number of COMMAND failures of it
 * (refused attempts included) since its last COMMAND success, the last person's message or the last unlock; other
 * operations in between do not end it, but a failure with an error the task has not seen, after progress since the
 * streak's last failure (an edit), starts it again at 1 (a build fixed step by step), and an attempt after such
 * progress is never refused before it runs. A failure that brings the streak to exactly {@code alertAt} → ALERT with
 * {@link SafetyRules#REPEAT_ALERT} (so once per streak); one that brings it to {@code lockAt} or more → LOCKOUT (only
 * reachable when the caller did not ask {@link #before} first, e.g. two identical commands in flight). {@link
 * #before}: a streak already at {@code lockAt - 1} or more → LOCKOUT, and the refused attempt is added to the streak;
 * otherwise NONE and nothing changes. Not thread-safe: its rules' owner feeds it.
 */
final class RepeatRule {
    private final SafetyRules.Limits limits;
    /** The task's ledger, whose progress marks say whether the task moved on since a failure. */
    private final TaskLedger ledger;
    private final TreeMap<String, Integer> streaks = new TreeMap<>();
    /** Per failing fingerprint, the ledger's progress mark at its last failure: progress since then is news. */
    private final TreeMap<String, Integer> marks = new TreeMap<>();

    RepeatRule(SafetyRules.Limits limits, TaskLedger ledger) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.ledger = Objects.requireNonNull(ledger, "ledger");
    }

    /** Before a command runs: LOCKOUT (the refused attempt counts as a failure of its streak) or NONE (no change). */
    SafetyRules.Verdict before(String fingerprint) {
        int streak = streaks.getOrDefault(fingerprint, 0);
        if (streak < limits.lockAt() - 1 || changedSince(fingerprint)) return SafetyRules.Verdict.none();
        streaks.put(fingerprint, streak + 1);
        return lock("refused: ", streak);
    }

    /**
     * After a COMMAND.
     *
     * @param errorSeen the failure's state was seen in the task before: the same error again (after an edit too)
     *                  goes on counting; an error not seen before, after progress, is a new attempt
     */
    SafetyRules.Verdict after(SafetyRules.Operation op, boolean errorSeen) {
        if (!op.failed()) {
            streaks.remove(op.fingerprint());
            marks.remove(op.fingerprint());
            return SafetyRules.Verdict.none();
        }
        boolean fresh = !errorSeen && changedSince(op.fingerprint());
        marks.put(op.fingerprint(), ledger.mark());
        int streak = fresh ? 1 : streaks.merge(op.fingerprint(), 1, Integer::sum);
        if (fresh) streaks.put(op.fingerprint(), 1);
        if (streak >= limits.lockAt()) return lock("", streak);
        if (streak == limits.alertAt()) {
            return new SafetyRules.Verdict(SafetyRules.Action.ALERT, SafetyRules.RULE_REPEAT, SafetyRules.REPEAT_ALERT);
        }
        return SafetyRules.Verdict.none();
    }

    /** How many times {@code fingerprint} has failed in its current streak (0 when none). */
    int streakOf(String fingerprint) {
        return streaks.getOrDefault(fingerprint, 0);
    }

    /** A new task: every streak ends. */
    void clear() {
        streaks.clear();
        marks.clear();
    }

    /** Whether the task made progress since the last failure of {@code fingerprint} (an edit between two builds). */
    private boolean changedSince(String fingerprint) {
        Integer at = marks.get(fingerprint);
        return at != null && ledger.mark() > at;
    }

    private static SafetyRules.Verdict lock(String prefix, int failures) {
        return new SafetyRules.Verdict(SafetyRules.Action.LOCKOUT, SafetyRules.RULE_REPEAT, prefix
                + "the same command failed " + failures + " times in a row; locked until a human unlocks");
    }

    /** Its part of the rules' JSON: {@code "streaks":{fp:n}}, written before the window. */
    void writeStreaks(ObjectNode root) {
        ObjectNode s = root.putObject("streaks");
        streaks.forEach(s::put);
    }

    /** Its part of the rules' JSON: {@code "marks":{fp:n}}, written after the chants. */
    void writeMarks(ObjectNode root) {
        ObjectNode m = root.putObject("marks");
        marks.forEach(m::put);
    }

    /** What {@link #writeStreaks} and {@link #writeMarks} wrote. */
    void read(JsonNode root) {
        RulesJson.readCounts(root.path("streaks"), streaks);
        RulesJson.readCounts(root.path("marks"), marks);
    }
}
