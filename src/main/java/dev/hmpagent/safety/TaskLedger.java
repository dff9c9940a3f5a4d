package dev.hmpagent.safety;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.safety.SafetyRules.Action;
import dev.hmpagent.safety.SafetyRules.Verdict;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The task's ledger of states (issue 33): progress is the world reaching a state this task has not seen before
 * ({@link ResultState}), whatever the command's wording; a result seen before, a message to a person, a timer, a
 * failure are not. Besides the states seen, it keeps what the rules built on it count:
 * <ul>
 *   <li>{@code mark}, the progress made in this epoch, so a failure streak can tell whether the world changed since
 *       its last failure;</li>
 *   <li>the LLM calls since the last progress (the no-progress cap), and whether they were alerted;</li>
 *   <li>the messages to people since the last progress or a person's message (talking is not doing);</li>
 *   <li>the run of equal states one after another (polls of an unchanged result), and the rests they earned;</li>
 *   <li>the last {@link #RECENT} states with repeats in a row collapsed, in which a return to earlier states over and
 *       over (A→B→A, A→B→C→A, undo and redo) is a cycle.</li>
 * </ul>
 * Pure logic, one owner (the rules); its JSON is stored with the rules' state, but for the states seen: they are
 * stored in a table of their own ({@code task_states}), since the rules are written with every operation and the
 * states were most of their text (up to 52 KB at 2,048 states). What changed in them since the last store is kept as
 * a {@link Changes} (issue 36).
 */
final class TaskLedger {
    /** States kept per task; the oldest is forgotten first (a task that saw more is long past any loop rule). */
    static final int REMEMBERED = 2048;

    /**
     * How the states seen changed since they were last stored: with {@code cleared} every stored one went first; each
     * of {@code added}, in order, became the newest; {@code forgotten} oldest ones were dropped past
     * {@link #REMEMBERED}.
     */
    record Changes(boolean cleared, List<String> added, int forgotten) {
        static final Changes NONE = new Changes(false, List.of(), 0);
    }
    /** Collapsed states kept for cycles: 5 rounds of the longest cycle looked for. */
    static final int LONGEST_CYCLE = 8;
    static final int RECENT = 5 * LONGEST_CYCLE;

    private final LinkedHashSet<String> seen = new LinkedHashSet<>();
    /** States added in this task, forgotten or not: stored with the rules, so a change of the states changes their text. */
    private long entered;
    /** What changed in {@code seen} since it was last stored ({@link #changes}). */
    private boolean cleared;
    private final List<String> added = new ArrayList<>();
    private int forgotten;
    private int mark;
    private int sinceProgress;
    private boolean callsAlerted;
    private int talks;
    private String last = "";
    private int same;
    private int rests;
    private final List<String> recent = new ArrayList<>();
    /** Whether the last {@link #enter} added a state to the recent ones (a repeat in a row does not). */
    private boolean grew;

    /**
     * A command's state: whether it was progress (a success reaching a state not seen before in this task). A state
     * that is the same as the one just before adds to the run of equal states; another one joins the recent states.
     */
    boolean enter(String key, boolean failed) {
        grew = false;
        if (!ResultState.isState(key)) return false;
        boolean fresh = seen.add(key);
        if (fresh) {
            entered++;
            added.add(key);
        }
        if (seen.size() > REMEMBERED) {
            Iterator<String> oldest = seen.iterator();
            oldest.next();
            oldest.remove();
            forgotten++;
        }
        same = key.equals(last) ? same + 1 : 1;
        last = key;
        grew = recent.isEmpty() || !recent.get(recent.size() - 1).equals(key);
        if (grew) {
            recent.add(key);
            if (recent.size() > RECENT) recent.remove(0);
        }
        if (fresh && !failed) {
            mark++;
            counted(1);   // this call is the first of a new run
        }
        return fresh && !failed;
    }

    /** Whether the task has seen {@code key} (before this very operation, when asked before {@link #enter}). */
    boolean seen(String key) {
        return seen.contains(key);
    }

    /** Progress ({@code calls} 1: the call that made it counts) or news (0): the counts of calls and messages restart. */
    private void counted(int calls) {
        sinceProgress = calls;
        callsAlerted = false;
        talks = 0;
        rests = 0;
    }

    /** New input from outside (a note): news, as progress is, but no state of the task's own; the cycles end. */
    void newInput() {
        counted(0);
        last = "";
        same = 0;
        recent.clear();
    }

    /** A person's message or an unlock: a new task, nothing of the old one counts. */
    void clear() {
        seen.clear();
        entered = 0;
        cleared = true;
        added.clear();
        forgotten = 0;
        mark = 0;
        newInput();
    }

    /** How the states seen changed since the last call (or since they were read): the caller stores that. */
    Changes changes() {
        if (!cleared && added.isEmpty() && forgotten == 0) return Changes.NONE;
        Changes out = new Changes(cleared, List.copyOf(added), forgotten);
        cleared = false;
        added.clear();
        forgotten = 0;
        return out;
    }

    /** The states seen as stored apart ({@link #write} with {@code withSeen} false), oldest first. */
    void seen(List<String> states) {
        if (states.size() > REMEMBERED) throw new IllegalArgumentException("ledger: too many states");
        seen.clear();
        seen.addAll(states);
    }

    int mark() {
        return mark;
    }

    /** One LLM call of the task made: one more since the last progress. */
    void called() {
        sinceProgress++;
    }

    int sinceProgress() {
        return sinceProgress;
    }

    /** Whether the no-progress alert is due now (once per run without progress). */
    boolean alertCalls(int at) {
        if (callsAlerted || sinceProgress < at) return false;
        callsAlerted = true;
        return true;
    }

    /** After a rest for polling: {@code calls} more calls before the next one, and the rest counted (they double). */
    int rested(int calls) {
        sinceProgress = Math.max(0, sinceProgress - calls);
        return ++rests;
    }

    int rests() {
        return rests;
    }

    /** A message to a person: how many since the last progress or person's message. */
    int talked() {
        return ++talks;
    }

    /** Equal states one after another, the latest included (1: the last state was new to the run). */
    int same() {
        return same;
    }

    /**
     * The cycle the recent states end in, as {length, period}: for the shortest period p (2 to {@link #LONGEST_CYCLE})
     * whose last p states are all different, the longest run of states each equal to the one p before it, with the
     * first p counted (A,B,A,B,A is 5 long); {0, 0} when no such run is two rounds long. Asked only when {@link
     * #grew()}.
     */
    int[] cycle() {
        int n = recent.size();
        for (int p = 2; p <= LONGEST_CYCLE && p <= n; p++) {
            if (recent.subList(n - p, n).stream().distinct().count() < p) continue;
            int length = p;
            while (length < n && recent.get(n - 1 - length).equals(recent.get(n - 1 - length + p))) length++;
            if (length >= 2 * p) return new int[] {length, p};
        }
        return new int[] {0, 0};
    }

    /** Whether the last {@link #enter} added a state to the recent ones (a repeat in a row does not). */
    boolean grew() {
        return grew;
    }

    /** Equal results in a row that make the calls polls: a hint at the third, a rest rather than a lock at the stop. */
    static final int POLLS = 3;
    static final Verdict POLL_HINT = new Verdict(Action.HINT, SafetyRules.RULE_POLL,
                    "(the same result as the two times before:"
            + " if you are waiting for a change, use idle with a wake condition (a process, a file, a note) or a time"
            + " instead of asking again)");

    Verdict cycleVerdict(SafetyRules.Limits limits) {
        int[] c = cycle();
        int length = c[0];
        int period = c[1];
        if (period == 0) return Verdict.none();
        if (length >= limits.loopLockAt() * period) {
            return new Verdict(Action.LOCKOUT, SafetyRules.RULE_OSCILLATION,
                    "no progress: the task went round the same " + period
                    + " states " + length / period + " times (back to an earlier result or file content each time);"
                    + " locked until a human unlocks");
        }
        if (length == limits.loopAlertAt() * period) {
            return new Verdict(Action.ALERT, SafetyRules.RULE_OSCILLATION,
                    "SYSTEM ALERT: You are going round in a circle: the"
                    + " same " + period + " states " + length / period + " times (results or file contents you had"
                    + " already), whatever the commands. STOP and analyze why.");
        }
        return Verdict.none();
    }

    Verdict talk(SafetyRules.Limits limits) {
        int talks = talked();
        if (talks < limits.talkRestAt()) return Verdict.none();
        return new Verdict(Action.REST, SafetyRules.RULE_TALK,
                    "talking, not doing: " + talks + " messages to the person with no"
                + " answer from them and nothing done in between; resting until a person answers");
    }

    /** The no-progress alert: {@link #sinceProgress} counts the call that made the last progress as the first. */
    Verdict callsAlert(SafetyRules.Limits limits) {
        return new Verdict(Action.ALERT, SafetyRules.RULE_NO_PROGRESS, "SYSTEM ALERT: no progress in " + sinceProgress
                + " calls: nothing you did since reached a result or file content this task had not seen (results seen"
                + " before, messages, timers, notes to yourself). At " + limits.noProgressStop() + " the agent stops."
                + " Change strategy, or tell the person what blocks you.");
    }

    /** See {@link SafetyRules#beforeCall()}. */
    Verdict beforeCall(SafetyRules.Limits limits) {
        int calls = sinceProgress;
        if (calls < limits.noProgressStop()) return Verdict.none();
        if (same >= POLLS) {
            rested(limits.noProgressStop() - limits.noProgressAlert());
            return new Verdict(Action.REST, SafetyRules.RULE_POLL, "polling: no progress in " + calls + " LLM calls,"
                    + " the last " + same + " results the same; wait with idle and a wake condition (a process, a"
                    + " file, a note) instead of asking again");
        }
        return new Verdict(Action.LOCKOUT, SafetyRules.RULE_NO_PROGRESS, "no progress in " + calls + " LLM calls:"
                + " none reached a result or file content this task had not seen (results seen before, messages,"
                + " timers, notes to itself); locked until a human unlocks");
    }

    /**
     * Into the rules' JSON, under {@code "ledger"}; the states seen only {@code withSeen} (the whole state as text),
     * else only how many were entered (they are stored apart, see {@link #changes}).
     */
    void write(ObjectNode root, boolean withSeen) {
        ObjectNode l = root.putObject("ledger");
        if (withSeen) {
            ArrayNode s = l.putArray("seen");
            seen.forEach(s::add);
        }
        l.put("entered", entered);
        l.put("mark", mark).put("since", sinceProgress).put("callsAlerted", callsAlerted ? 1 : 0).put("talks", talks)
                .put("last", last).put("same", same).put("rests", rests);
        ArrayNode r = l.putArray("recent");
        recent.forEach(r::add);
    }

    /**
     * What {@link #write} wrote (nothing when it is missing: rules stored before the ledger); throws when unreadable.
     * True when it held the states seen: written whole, or stored before they had a table of their own.
     */
    boolean read(JsonNode root) {
        JsonNode l = root.path("ledger");
        if (l.isMissingNode()) return false;
        if (!l.isObject()) throw new IllegalArgumentException("ledger");
        JsonNode states = array(l, "seen");
        for (JsonNode s : states) seen.add(RulesJson.text(s));
        entered = l.path("entered").asLong(seen.size());
        mark = RulesJson.count(l.path("mark"));
        sinceProgress = RulesJson.count(l.path("since"));
        callsAlerted = RulesJson.count(l.path("callsAlerted")) == 1;
        talks = RulesJson.count(l.path("talks"));
        last = l.path("last").asText("");
        same = RulesJson.count(l.path("same"));
        rests = RulesJson.count(l.path("rests"));
        for (JsonNode s : array(l, "recent")) recent.add(RulesJson.text(s));
        if (seen.size() > REMEMBERED || recent.size() > RECENT) throw new IllegalArgumentException("ledger: too long");
        return !states.isMissingNode();
    }

    /** States read from the rules' text that belong in the table: stored there at the next store, the old ones first. */
    void moveSeenApart() {
        cleared = true;
        added.clear();
        added.addAll(seen);
        forgotten = 0;
    }

    private static JsonNode array(JsonNode l, String name) {
        JsonNode a = l.path(name);
        if (!a.isMissingNode() && !a.isArray()) throw new IllegalArgumentException("ledger." + name);
        return a;
    }
}
