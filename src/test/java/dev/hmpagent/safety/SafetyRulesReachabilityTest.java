package dev.hmpagent.safety;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.safety.SafetyRules.Action;
import dev.hmpagent.safety.SafetyRules.Kind;
import dev.hmpagent.safety.SafetyRules.Limits;
import dev.hmpagent.safety.SafetyRules.Operation;
import dev.hmpagent.safety.SafetyRules.Verdict;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Reachability: over thousands of random sequences, every operation gets exactly the verdict that an independent
 * brute-force recount of the raw event list says is due — so every point that meets a lock or pause rule gets it at
 * exactly that operation, and no other point gets one. The oracle never reads the rules' own counters; it recounts
 * every rule from the events of each prefix (as the public design's unreachable halt would have shown). Since issue 33
 * the rules on the task ledger (states, cycles, calls without progress, talking) have their own tests
 * ({@code SafetyRulesTest}, {@code TaskLedgerTest}): here commands carry no state (a null key), so the ledger never
 * moves and the oracle recounts the cascade, repeat, chant and thrash rules.
 */
class SafetyRulesReachabilityTest {
    static final int SEEDS = 2000;

    sealed interface Event permits Ask, Ran, Person, Input, Unlock { }

    record Ask(String fingerprint) implements Event { }

    record Ran(Operation op) implements Event { }

    record Person() implements Event { }

    record Input() implements Event { }

    record Unlock() implements Event { }

    record Expected(Action action, String rule) { }

    @Test
    void every_sequence_gets_exactly_the_verdicts_a_brute_force_recount_says_are_due() {
        Map<String, Integer> seen = new TreeMap<>();
        for (long seed = 1; seed <= SEEDS; seed++) {
            runSequence(seed, seen);
        }
        // the generator must reach every rule, or the property proves little
        assertThat(seen).as("verdicts seen: " + seen).containsKeys("after ERROR_PAUSE cascade",
                "before LOCKOUT repeat", "after LOCKOUT repeat", "after ALERT repeat", "after ALERT chant",
                "after ERROR_PAUSE chant", "after ALERT thrash", "after ERROR_PAUSE thrash");
        assertThat(seen.get("after ERROR_PAUSE cascade")).as("verdicts seen: " + seen).isGreaterThan(100);
        assertThat(seen.get("before LOCKOUT repeat")).as("verdicts seen: " + seen).isGreaterThan(100);
        assertThat(seen.get("calm sequences")).as("sequences without a lock or pause").isGreaterThan(SEEDS / 25);   // fewer since the thrash rule (issue 23)
    }

    private void runSequence(long seed, Map<String, Integer> seen) {
        Random random = new Random(seed);
        Limits limits = seed % 2 == 0 ? Limits.DEFAULTS : randomLimits(random);
        Generator generator = new Generator(random);
        Oracle oracle = new Oracle(limits);
        SafetyRules rules = new SafetyRules(limits);
        int length = 30 + random.nextInt(90);
        boolean calm = true;
        for (int step = 0; step < length; step++) {
            if (random.nextInt(20) == 0) rules = SafetyRules.fromJson(limits, rules.toJson()); // a restart
            for (Event event : generator.next()) {
                Verdict actual = apply(rules, event);
                Expected expected = oracle.expect(event);
                if (actual == null) continue; // a reset: no verdict
                Expected got = new Expected(actual.action(), actual.rule());
                if (!got.equals(expected)) { // checked first: building the message for every event is slow
                    assertThat(got).as("seed %d (limits %s) step %d: %s after %s", seed, limits, step, event,
                            oracle.tail()).isEqualTo(expected);
                }
                String where = event instanceof Ask ? "before " : "after ";
                seen.merge(where + actual.action() + " " + actual.rule(), 1, Integer::sum);
                calm &= actual.action().compareTo(Action.LOCKOUT) < 0;
                if (actual.action() == Action.LOCKOUT && event instanceof Ask) break; // refused: it never runs
            }
        }
        if (calm) seen.merge("calm sequences", 1, Integer::sum);
    }

    /** Null for the events that give no verdict. */
    private static Verdict apply(SafetyRules rules, Event event) {
        if (event instanceof Ask ask) return rules.beforeCommand(ask.fingerprint());
        if (event instanceof Ran ran) return rules.after(ran.op());
        if (event instanceof Person) rules.personMessage();
        else if (event instanceof Input) rules.newInput();
        else rules.unlock();
        return null;
    }

    private static Limits randomLimits(Random random) {
        int windowSize = 1 + random.nextInt(12);
        int thrashWindow = 1 + random.nextInt(14);
        return new Limits(1 + random.nextInt(4), 2 + random.nextInt(5), windowSize, 1 + random.nextInt(windowSize),
                1 + random.nextInt(4), 2 + random.nextInt(3), 2 + random.nextInt(5), thrashWindow,
                1 + random.nextInt(thrashWindow));
    }

    /** Random operations with a per-sequence temperament, so cascades, streaks, loops and cycles all happen. */
    static final class Generator {
        final Random random;
        final double failureRate;
        final int fingerprints;
        int fresh;

        Generator(Random random) {
            this.random = random;
            this.failureRate = 0.02 + 0.93 * random.nextDouble();
            this.fingerprints = 1 + random.nextInt(4);
        }

        /** One step: an event, or an Ask and the operation it allows. */
        List<Event> next() {
            int roll = random.nextInt(100);
            if (roll < 58) return command();
            boolean bad = random.nextDouble() < failureRate;
            if (roll < 68) return List.of(new Ran(Operation.transientLlm("llm:connect")));
            if (roll < 77) return List.of(new Ran(new Operation(Kind.FATAL_LLM, bad, "llm:http_401", null)));
            if (roll < 89) return List.of(bad ? new Ran(Operation.chant("chanting")) : new Input());
            if (roll < 95) return List.of(new Input());
            if (roll < 98) return List.of(new Person());
            return List.of(new Unlock());
        }

        private List<Event> command() {
            String fingerprint = random.nextInt(6) == 0 ? "distinct-" + fresh++ : "fp-" + random.nextInt(fingerprints);
            Operation op = new Operation(Kind.COMMAND, random.nextDouble() < failureRate, fingerprint,
                    null);   // no state: the ledger's rules are tested on their own (SafetyRulesTest, TaskLedgerTest)
            if (random.nextInt(8) == 0) return List.of(new Ran(op)); // reported without asking (in flight together)
            return List.of(new Ask(fingerprint), new Ran(op));
        }
    }

    /** Recounts every rule from the raw events of each prefix; remembers only which asks it refused. */
    static final class Oracle {
        final Limits limits;
        final List<Event> events = new ArrayList<>();
        final List<Boolean> refused = new ArrayList<>();
        /** Whether event i was progress for the thrash rule: a function of events 0..i, kept so as not to recount it. */
        final List<Boolean> progress = new ArrayList<>();

        Oracle(Limits limits) {
            this.limits = limits;
        }

        Expected expect(Event event) {
            events.add(event);
            progress.add(isProgress(events.size() - 1));
            Expected expected = due(events.size() - 1);
            refused.add(event instanceof Ask && expected.action() == Action.LOCKOUT);
            return expected;
        }

        String tail() {
            return events.subList(Math.max(0, events.size() - 12), events.size()).toString();
        }

        private Expected due(int n) {
            Event event = events.get(n);
            if (event instanceof Ask ask) {
                return streak(ask.fingerprint(), n - 1) >= limits.lockAt() - 1
                        ? new Expected(Action.LOCKOUT, "repeat") : none();
            }
            if (!(event instanceof Ran ran) || !inWindow(ran.op())) return none();
            Operation op = ran.op();
            List<Expected> candidates = new ArrayList<>(); // in the documented order of precedence
            candidates.add(cascade(n));
            if (op.kind() == Kind.COMMAND && op.failed()) {
                int streak = streak(op.fingerprint(), n);
                candidates.add(streak >= limits.lockAt() ? new Expected(Action.LOCKOUT, "repeat")
                        : streak == limits.alertAt() ? new Expected(Action.ALERT, "repeat") : none());
            }
            if (op.kind() == Kind.CHANT) {
                candidates.add(taskChants(n) >= limits.chantPauseAt() ? new Expected(Action.ERROR_PAUSE, "chant")
                        : new Expected(Action.ALERT, "chant"));
            }
            if (op.kind() == Kind.COMMAND) candidates.add(thrash(n));
            Expected strongest = none();
            for (Expected candidate : candidates) {
                if (candidate.action().compareTo(strongest.action()) > 0) strongest = candidate;
            }
            return strongest;
        }

        private static Expected none() {
            return new Expected(Action.NONE, "");
        }

        private static boolean inWindow(Operation op) {
            return op.kind() == Kind.COMMAND || op.kind() == Kind.CHANT || (op.kind() == Kind.FATAL_LLM && op.failed());
        }

        private static boolean failure(Operation op) {
            return op.kind() == Kind.CHANT || op.failed();
        }

        /** Failures of the fingerprint (refused asks included) in events 0..end since its success, a person, an unlock. */
        private int streak(String fingerprint, int end) {
            int count = 0;
            for (int i = end; i >= 0; i--) {
                Event e = events.get(i);
                if (e instanceof Person || e instanceof Unlock) break;
                if (e instanceof Ask ask && ask.fingerprint().equals(fingerprint) && refused.get(i)) count++;
                if (e instanceof Ran ran && ran.op().kind() == Kind.COMMAND && ran.op().fingerprint().equals(fingerprint)) {
                    if (!ran.op().failed()) break;
                    count++;
                }
            }
            return count;
        }

        /** The window operations of the epoch up to n, oldest first. */
        private List<Operation> windowOps(int n) {
            List<Operation> ops = new ArrayList<>();
            for (int i = n; i >= 0 && !(events.get(i) instanceof Unlock); i--) {
                if (events.get(i) instanceof Ran ran && inWindow(ran.op())) ops.add(ran.op());
            }
            Collections.reverse(ops);
            return ops;
        }

        private Expected cascade(int n) {
            List<Operation> ops = windowOps(n);
            List<Operation> last = ops.subList(Math.max(0, ops.size() - limits.windowSize()), ops.size());
            long failures = last.stream().filter(Oracle::failure).count();
            return failures >= limits.windowFailures() ? new Expected(Action.ERROR_PAUSE, "cascade") : none();
        }

        /** The chants since the last person's message or unlock, up to n. */
        private int taskChants(int n) {
            int chants = 0;
            for (int i = n; i >= 0 && !(events.get(i) instanceof Person) && !(events.get(i) instanceof Unlock); i--) {
                if (events.get(i) instanceof Ran ran && ran.op().kind() == Kind.CHANT) chants++;
            }
            return chants;
        }

        /** Progress is the ledger's, and commands here carry no state: never. */
        private boolean isProgress(int n) {
            return false;
        }

        private Expected thrash(int n) {
            if (progress.get(n)) return none();
            List<Boolean> run = new ArrayList<>();   // failed, newest first, back to the last progress or new input
            for (int i = n; i >= 0; i--) {
                Event e = events.get(i);
                if (e instanceof Input || e instanceof Person || e instanceof Unlock || (i < n && progress.get(i))) break;
                if (e instanceof Ran ran && ran.op().kind() == Kind.COMMAND) run.add(ran.op().failed());
            }
            Collections.reverse(run);
            int size = run.size();
            if (size >= limits.thrashWindow() && failuresAmongLast(run, size) >= limits.thrashFailures()) {
                return new Expected(Action.ERROR_PAUSE, "thrash");
            }
            if (!thrashAlertHolds(run, size)) return none();
            for (int k = 1; k < size; k++) {
                if (thrashAlertHolds(run, k)) return none();   // alerted already in this run
            }
            return new Expected(Action.ALERT, "thrash");
        }

        /** Whether the alert condition holds after the first k commands of the run. */
        private boolean thrashAlertHolds(List<Boolean> run, int k) {
            return Math.min(k, limits.thrashWindow()) >= (limits.thrashWindow() + 1) / 2
                    && failuresAmongLast(run, k) >= (limits.thrashFailures() + 1) / 2;
        }

        /** Failures among the last thrashWindow of the first k commands of the run. */
        private long failuresAmongLast(List<Boolean> run, int k) {
            return run.subList(Math.max(0, k - limits.thrashWindow()), k).stream().filter(Boolean::booleanValue).count();
        }
    }
}
