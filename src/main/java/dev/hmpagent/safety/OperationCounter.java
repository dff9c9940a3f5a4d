package dev.hmpagent.safety;

import dev.hmpagent.store.Requester;
import dev.hmpagent.store.SafetyCountersDao;
import dev.hmpagent.store.SafetyDao;
import dev.hmpagent.store.Store;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The {@link SafetyMonitor}'s count of commands and operations against the rules ({@link SafetyRules}): the refusal
 * before a command runs, and after each operation the breakers' verdict, the Guide's meaning of a failure and the
 * command a stop names. The monitor keeps the LLM calls, the tasks and the unlock refusals; both move the state through
 * the same {@link StateMoves} and keep the same {@link KeptRules}. On the tick thread, inside the caller's transaction,
 * as the monitor is.
 */
final class OperationCounter {
    static final String ALERT = "SYSTEM ALERT: You are repeating a failed action. STOP and analyze why.";

    private final Store store;
    /** The attempt of one fingerprint that is refused and locks, named in a refusal's reason. */
    private final int lockAt;
    private final Guide guide;
    private final Consumer<String> notices;
    private final SafetyDao safety;
    private final SafetyCountersDao counters;
    /** The command a stop is about and its last error, named in the stop's reason. */
    private final LockoutCause causes;
    /** The row a refusal before it ran belongs to: counted by beforeCommand already, not again when it is written. */
    private long refusedRow = -1;
    /** Moves the persisted state, audits the move, tells people once it committed. */
    private final StateMoves moves;
    /** The rules as last parsed or saved: parsed again only when the row holds other text. */
    private final KeptRules kept;

    private boolean sandboxTold;

    OperationCounter(Store store, int lockAt, Guide guide, Consumer<String> notices, KeptRules kept,
                     StateMoves moves) {
        this.store = store;
        this.lockAt = lockAt;
        this.guide = guide;
        this.notices = notices;
        this.safety = store.tables().safety();
        this.counters = store.tables().safetyCounters();
        this.causes = new LockoutCause(store.tables().processLog());
        this.kept = kept;
        this.moves = moves;
    }

    /**
     * Before a command runs, inside the caller's transaction: empty to let it run, or the reason it is refused; a
     * refusal locks the agent (the 5th identical failure is refused before it runs).
     */
    Optional<String> beforeCommand(long processLogId, String fingerprint) {
        String stored = counters.current().rulesJson();
        SafetyRules rules = kept.take(stored);
        SafetyRules.Verdict v = rules.beforeCommand(fingerprint);
        if (v.action() == SafetyRules.Action.NONE) {
            kept.unchanged(stored, rules);
            return Optional.empty();
        }
        save(rules);
        refusedRow = processLogId;
        String reason = v.reason().isEmpty() ? "the same command failed " + (lockAt - 1)
                + " times in a row" : v.reason().replaceFirst("^refused: ", "");
        reason += causes.of(processLogId, fingerprint);
        moves.stop(SafetyStates.Event.LOCKOUT, reason);
        return Optional.of(reason + " (refused before it ran)");
    }

    /** One operation's outcome, counted, as the LLM is told it; a format slip is told as it is, counted nowhere. */
    String after(Operation outcome) {
        if (outcome.source() == Operation.Source.SLIP) return outcome.result();
        if (outcome.failure().filter(f -> ErrorCode.ESANDBOX.equals(f.code())).isPresent()) return sandboxFailed(outcome);
        String stored = counters.current().rulesJson();
        SafetyRules rules = kept.take(stored);
        if (outcome.processLogId() == refusedRow) {   // counted when it was refused
            refusedRow = -1;
            kept.unchanged(stored, rules);
            return outcome.failure().map(f -> guide.explain(f, rules.streakOf(f.fingerprint()))).orElse(outcome.result());
        }
        SafetyRules.Verdict v = rules.after(new SafetyRules.Operation(kind(outcome.source()), outcome.failed(),
                outcome.fingerprint(), outcome.source() == Operation.Source.COMMAND ? outcome.progressKey() : null));
        save(rules);
        outcome.failure().filter(f -> f.severity() == Severity.CRITICAL).ifPresent(this::auditViolation);
        boolean command = outcome.source() == Operation.Source.COMMAND;
        if (command) outcome.failure().ifPresent(f -> causes.failed(outcome.fingerprint(), f));
        // the Guide says what the failure means, and how many times in a row the same action has failed; chanting is
        // no failed action (no argument to check against help): told as it is, with the chant rule's verdict
        String shown = outcome.source() == Operation.Source.CHANT ? outcome.result() : outcome.failure()
                .map(f -> guide.explain(f, Math.max(1, rules.streakOf(f.fingerprint())))).orElse(outcome.result());
        switch (v.action()) {
            case NONE -> { }
            case HINT -> shown = shown + "\n" + v.reason();
            case ALERT -> shown = (v.reason().isEmpty() ? ALERT : v.reason()) + "\n" + shown;
            case REST -> {   // talking, not doing: until a person answers (their message ends a rest), a day at most
                moves.rest(store.clock().instant().plus(java.time.Duration.ofDays(1)), v.reason());
                shown = shown + "\n[the agent rests: " + v.reason() + "]";
            }
            case LOCKOUT -> {
                moves.stop(SafetyStates.Event.LOCKOUT, "safety lockout: " + v.reason() + cause(command, outcome));
                shown = shown + "\n[the agent is locked: " + v.reason() + "; a person must run agent unlock]";
            }
            case ERROR_PAUSE -> {
                // "error cascade: …", "chanting: …", "thrashing: …", and the command it is about
                moves.stop(SafetyStates.Event.ERROR_PAUSE, v.reason() + cause(command, outcome));
                shown = shown + "\n[the agent is paused: " + v.reason() + "; a person must run agent unlock]";
            }
        }
        return shown;
    }

    /**
     * A command the sandbox failed to run: the machine's failure, not the model's, so counted nowhere (no streak, no
     * cascade, no thrashing, no pause); the person is told once in this run, since every command fails the same way
     * until someone repairs the machine.
     */
    private String sandboxFailed(Operation outcome) {
        if (!sandboxTold) {
            sandboxTold = true;
            String broke = outcome.failure().orElseThrow().detail().lines().findFirst().orElse("the sandbox failed")
                    .replaceFirst("^not run: ", "");
            notices.accept(broke + ": shell and script_run fail as ESANDBOX (not counted against the model) until the"
                    + " sandbox works again; agent check says why");
        }
        return outcome.result();
    }

    /** The command a stop on {@code outcome} is about, and its last error ("" for an LLM call's failure). */
    private String cause(boolean command, Operation outcome) {
        return command ? causes.of(outcome.processLogId(), outcome.fingerprint()) : "";
    }

    /** A critical refusal (the control surface, a reserved command, the policy) is audited where people look. */
    private void auditViolation(FailureFact f) {
        SafetyDao.Row now = safety.current();
        Requester me = Requester.thisProcess();
        safety.audit(new SafetyDao.Audit(store.clock().instant(), "refused", now.state(), now.state(), null,
                f.kind() + ": " + f.detail(), me.pid(), "agent", me.host()));
    }

    private void save(SafetyRules rules) {
        kept.save(rules);
    }

    private static SafetyRules.Kind kind(Operation.Source source) {
        return switch (source) {
            case COMMAND -> SafetyRules.Kind.COMMAND;
            case CHANT -> SafetyRules.Kind.CHANT;
            case SLIP -> throw new IllegalArgumentException("a format slip is not counted");
            case LLM_FATAL -> SafetyRules.Kind.FATAL_LLM;
            case LLM_TRANSIENT -> SafetyRules.Kind.TRANSIENT_LLM;
        };
    }
}
