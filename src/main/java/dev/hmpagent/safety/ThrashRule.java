package dev.hmpagent.safety;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.safety.SafetyRules.Action;
import dev.hmpagent.safety.SafetyRules.Verdict;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;

/**
 * The thrash rule of {@link SafetyRules} (issue 23): one new thing tried after another, half of them failing, and
 * nothing moving on. Its state: the outcomes of the commands since the last progress (the last
 * {@code thrashWindow} of them), whether this run has alerted, and the last successful progress key of each recently
 * successful command. Progress is a successful command whose progress key differs from the last successful one of
 * the same command (the same fingerprint): a result the world changed. A command's first success has nothing to
 * differ from and is no progress (a new diary entry beside each failure moves nothing); new input, a person's message
 * and an unlock are (they end the run).
 */
final class ThrashRule {
    /** Successful commands whose last progress key is kept (the most recently successful): a few tasks' worth. */
    static final int REMEMBERED = 64;

    private final int window;
    private final int failures;
    private final Deque<Boolean> run = new ArrayDeque<>();
    private boolean alerted;
    /** Fingerprint → its last successful progress key, least recently successful first. */
    private final LinkedHashMap<String, String> lastGood = new LinkedHashMap<>();

    ThrashRule(int window, int failures) {
        this.window = window;
        this.failures = failures;
    }

    /** A COMMAND operation (success or failure): PAUSE, ALERT or NONE from this rule. */
    Verdict after(SafetyRules.Operation op) {
        boolean good = !op.failed() && op.progressKey() != null;
        String before = good ? lastGood.remove(op.fingerprint()) : null;
        if (good) {
            lastGood.put(op.fingerprint(), op.progressKey());
            if (lastGood.size() > REMEMBERED) lastGood.remove(lastGood.keySet().iterator().next());
        }
        if (before != null && !before.equals(op.progressKey())) {
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
                    + run.size() + " commands failed and none of the others made progress (a new result of a command"
                    + " run before); paused until a human unlocks");
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
        lastGood.clear();
    }

    /** Into the rules' JSON: {@code "thrash":"SF…","thrashAlerted":0|1,"good":{fingerprint:key,…}}. */
    void write(ObjectNode root) {
        root.put("thrash", RulesJson.outcomes(run));
        root.put("thrashAlerted", alerted ? 1 : 0);
        ObjectNode good = root.putObject("good");
        lastGood.forEach(good::put);
    }

    /** What {@link #write} wrote; IllegalArgumentException when it is not that. */
    void read(JsonNode root) {
        RulesJson.readOutcomes(root.path("thrash"), run);
        while (run.size() > window) run.removeFirst();   // the window was made smaller since
        int flag = RulesJson.count(root.path("thrashAlerted"));
        if (flag > 1) throw new IllegalArgumentException("thrashAlerted: " + flag);
        alerted = flag == 1;
        RulesJson.readTexts(root.path("good"), lastGood);
        if (lastGood.size() > REMEMBERED) throw new IllegalArgumentException("good: more than " + REMEMBERED);
    }
}
