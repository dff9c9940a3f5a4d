package dev.hmpagent.cli;

import dev.hmpagent.text.Json;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.safety.Alerter;
import dev.hmpagent.safety.ErrorCode;
import dev.hmpagent.safety.FailureFact;
import dev.hmpagent.safety.Fingerprint;
import dev.hmpagent.safety.Guide;
import dev.hmpagent.safety.Operation;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.SafetyMonitor;
import dev.hmpagent.safety.SafetyStatus;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessStatus;
import dev.hmpagent.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The rules' what-if ({@code agent replay}): the real SafetyMonitor, with the limits and the Guide of a config, is
 * told a recorded task step by step as the running agent tells it — before each call, the call's tokens, the gate
 * before each command, each command's outcome ({@link Operation#ofCommand}, the executor's own factory) — on a
 * scratch file of the agent's schema that is deleted afterwards. No LLM is asked, no command runs, no alert command
 * runs. Nothing here decides a verdict: what the monitor returns (an alert before the result), its notices and the
 * safety state it moves to are what is reported, so a replay follows the rules as they are in this build.
 */
final class Replay {
    /**
     * What the rules did over a trace.
     *
     * @param steps      the replies replayed (up to the stop)
     * @param lines      one line per step where something fired ("step 3: alert (file_read): SYSTEM ALERT: …")
     * @param firstAlert the step whose commands got the first alert, 0 for none
     * @param stopStep   calls made when the state first left ACTIVE (a stop before a call counts the calls before
     *                   it), 0 when it never did; a rest counts
     * @param end        the safety state at the end (ACTIVE, SAFETY_LOCKOUT, RESTING, STOPPED(budget)…)
     */
    record Verdicts(int steps, List<String> lines, int firstAlert, int stopStep, String end) {
        boolean stopped() {
            return !end.equals("ACTIVE");
        }
    }

    private static final ObjectMapper JSON = Json.mapper();
    private final SafetyMonitor.Limits limits;
    private final Guide guide;

    Replay(SafetyMonitor.Limits limits, Guide guide) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.guide = Objects.requireNonNull(guide, "guide");
    }

    /** Replays {@code trace} on a scratch file in a new temporary folder, removed afterwards. */
    Verdicts run(List<Trace.Line> trace) {
        Path dir;
        try {
            dir = Files.createTempDirectory("agent-replay");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a scratch folder for the replay", e);
        }
        try {
            return run(trace, dir.resolve("replay.db"));
        } finally {
            for (String suffix : List.of("", "-wal", "-shm", "-journal")) {
                dir.resolve("replay.db" + suffix).toFile().delete();
            }
            dir.toFile().delete();
        }
    }

    private Verdicts run(List<Trace.Line> trace, Path db) {
        ReplayClock clock = new ReplayClock(trace.stream().filter(Trace.Step.class::isInstance)
                .map(l -> ((Trace.Step) l).at()).flatMap(Optional::stream).findFirst()
                .orElse(Instant.parse("2026-01-01T00:00:00Z")));
        try (Store store = Store.open(db, clock)) {
            Run run = new Run(store, clock);
            run.all(trace);
            return new Verdicts(run.step, List.copyOf(run.lines), run.firstAlert, run.stopStep,
                    run.control.current().label());
        }
    }

    /** One replay's state: the monitor on the scratch file, the step counted, what was said. */
    private final class Run {
        final Store store;
        final ReplayClock clock;
        final SafetyControl control;
        final ProcessLogDao processLog;
        final List<String> lines = new ArrayList<>();
        final List<String> notices = new ArrayList<>();
        final SafetyMonitor monitor;
        int step;
        int firstAlert;
        int stopStep;
        long noteId;

        Run(Store store, ReplayClock clock) {
            this.store = store;
            this.clock = clock;
            this.control = new SafetyControl(store);
            this.processLog = store.tables().processLog();
            // the alert command is never run: a replay runs nothing; what it would say is the notice
            Alerter noAlert = reason -> { };
            this.monitor = new SafetyMonitor(store, limits, guide, noAlert, notices::add);
        }

        void all(List<Trace.Line> trace) {
            for (Trace.Line line : trace) {
                if (line instanceof Trace.Person) {
                    // a person's message starts a task and ends a rest, as the running agent's wake rule does
                    control.endRestIfDue(s -> true);
                    monitor.newTask(++noteId);
                    monitor.newInput();
                    continue;
                }
                if (line instanceof Trace.NextCall) {
                    // the call the agent asked for after the last step: may it be made?
                    control.endRestIfDue(s -> true);
                    monitor.beforeLlmCall(0);   // its size is not recorded: the budget already spent decides
                    told(step, "before step " + (step + 1));
                    break;
                }
                if (!step((Trace.Step) line)) break;
            }
        }

        /** Replays one reply; false once the agent would not go on (a stop only a person releases). */
        boolean step(Trace.Step s) {
            // the recording went on after a rest: it ended (by its time or a person's message) before this call
            control.endRestIfDue(st -> true);
            step++;
            clock.set(s.at().orElse(clock.instant().plus(Duration.ofSeconds(1))));
            // the live agent estimated the prompt it was about to send and its longest reply; the recording has what the
            // call cost, the nearest a replay knows
            if (!monitor.beforeLlmCall(s.tokens().budget())) {
                step--;
                return told(step, "before step " + (step + 1));
            }
            store.inTransaction(() -> {
                monitor.afterLlmCall(s.tokens().budget(), true);
                s.otherCalls().forEach(t -> monitor.afterLlmCall(t.budget(), false));
            });
            for (Trace.Command c : s.commands()) {
                if (!c.ran()) continue;   // never finished or never ran in the recording: nothing to tell
                if (!command(c)) break;
            }
            monitor.flush();
            return told(step, "step " + step);
        }

        /** Tells the monitor of command {@code c}; false when the gate refused it (the rest of the reply never runs). */
        private boolean command(Trace.Command c) {
            boolean chant = c.type().equals("chanting");
            FailureFact fact = chant ? FailureFact.of("reply", "chanting", ErrorCode.EINVAL, c.output()) : null;
            String fingerprint = chant ? fact.fingerprint() : Fingerprint.ofCommand(c.type(), c.args());
            String value = JSON.createObjectNode().put("type", c.type()).set("args", c.args()).toString();
            long id = processLog.enqueue(step, c.type(), null, value, fingerprint);
            Operation op;
            boolean refused = false;
            if (chant) {
                op = new Operation(id, Operation.Source.CHANT, c.type(), fingerprint, c.status(), c.output(), "",
                        Optional.of(fact));
            } else {
                Optional<String> refusal = monitor.refuseBeforeCommand(id, fingerprint);
                refused = refusal.isPresent();
                String status = refused ? ProcessStatus.ERROR.column() : c.status();
                String output = refusal.map(r -> c.type() + " refused: " + r).orElse(c.output());
                String code = refused ? ErrorCode.EPERM : c.code();
                Optional<FailureFact> failure = refused || c.failed()
                        ? Optional.of(FailureFact.command(c.type(), fingerprint, code, output)) : Optional.empty();
                op = Operation.ofCommand(id, c.type(), c.args(), fingerprint, status, output, failure, c.slip());
            }
            Operation told = op;
            String shown = store.inTransaction(() -> {
                String text = monitor.onOperation(step, told);
                processLog.finish(id, new ProcessLogDao.Finished(ProcessStatus.fromColumn(told.status()), text,
                        told.failure().map(FailureFact::code).orElse(null), null, 0, null, true));
                return text;
            });
            shown.lines().filter(l -> l.startsWith("SYSTEM ALERT")).forEach(l -> {
                if (firstAlert == 0) firstAlert = step;
                lines.add("step " + step + ": alert (" + c.type() + "): " + l);
            });
            return !refused;
        }

        /** Says the notices of step {@code n}; false once the state left ACTIVE for a stop that is not a rest. */
        private boolean told(int n, String where) {
            notices.forEach(notice -> lines.add(where + ": " + notice));
            notices.clear();
            SafetyStatus now = control.current();
            if (!now.active() && stopStep == 0) stopStep = n;
            return now.active() || now.resting();
        }
    }

    /** The replay's time: each step's recorded instant (or a second after the last), so dated rules see it pass. */
    private static final class ReplayClock extends Clock {
        private volatile Instant now;

        ReplayClock(Instant start) {
            this.now = start;
        }

        void set(Instant at) {
            if (at.isAfter(now)) now = at;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
