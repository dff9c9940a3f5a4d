package dev.hmpagent.safety;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.safety.SafetyRules.Action;
import dev.hmpagent.safety.SafetyRules.Verdict;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The thrash rule of {@link SafetyRules} (issue 23): one new thing tried after another, half of them failing, and
 * nothing moving on. Its state: the outcomes of the commands since the last progress (the last {@code thrashWindow}
 * of them) and whether this run has alerted. Progress is the task ledger's (issue 33: a state the task has not seen
 * before); new input, a person's message and an unlock end the run too.
 */
final class ThrashRule {
    private final int window;
    private final int failures;
    private final Deque<Boolean> run = new ArrayDeque<>();
    private boolean alerted;

    ThrashRule(int window, int failures) {
        this.window = window;
        this.failures = failures;
    }

    /** A COMMAND operation (success or failure), {@code progress} when the ledger saw it reach a new state. */
    Verdict after(SafetyRules.Operation op, boolean progress) {
        if (progress) {
            movedOn();
            return Verdict.none();
        }
        run.addLast(op.failed());
        while (run.size() > window) run.removeFirst();
        long failed = run.stream().filter(Boolean::booleanValue).count();
        boolean alertDue = run.size() >= (window + 1) / 2 && failed >= (failures + 1) / 2;
        boolean firstAlert = alertDue && !alerted;
        alerted |= alertDue;
        if (run.size() >= window && failed >= failures) {
            return new Verdict(Action.ERROR_PAUSE, SafetyRules.RULE_THRASH, "thrashing: " + failed + " of the last "
                    + run.size() + " commands failed and none of the others made progress (a result or file content"
                    + " this task had not seen); paused until a human unlocks");
        }
        if (!firstAlert) return Verdict.none();
        return new Verdict(Action.ALERT, SafetyRules.RULE_THRASH, "SYSTEM ALERT: You are thrashing: " + failed
                + " of your last " + run.size() + " commands failed and nothing you did since moved the task on. STOP"
                + " trying one thing after another: say what you know and what you tried, and ask the person if you"
                + " are stuck.");
    }

    /** Progress, new input or a person's message: the run ends (the remembered results stay). */
    void movedOn() {
        run.clear();
        alerted = false;
    }

    /** An unlock: everything afresh. */
    void clear() {
        movedOn();
    }

    /** Into the rules' JSON: {@code "thrash":"SF…","thrashAlerted":0|1}. */
    void write(ObjectNode root) {
        root.put("thrash", RulesJson.outcomes(run));
        root.put("thrashAlerted", alerted ? 1 : 0);
    }

    /** What {@link #write} wrote; IllegalArgumentException when it is not that. */
    void read(JsonNode root) {
        RulesJson.readOutcomes(root.path("thrash"), run);
        while (run.size() > window) run.removeFirst();   // the window was made smaller since
        int flag = RulesJson.count(root.path("thrashAlerted"));
        if (flag > 1) throw new IllegalArgumentException("thrashAlerted: " + flag);
        alerted = flag == 1;   // "good" (before issue 33: each command's last result) is the ledger's now
    }
}
