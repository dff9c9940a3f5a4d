package dev.hmpagent.safety;

import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessStatus;
import dev.hmpagent.store.SafetyCountersDao;
import dev.hmpagent.store.SafetyDao;
import dev.hmpagent.store.Store;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The agent feels its errors and stops itself: one monitor in the core, on the tick thread's connection. Its
 * counters live in {@code safety_counters} and are written in the transaction of the operation they count, so a
 * restart neither forgets nor double counts.
 * <ul>
 *   <li>{@link #refuseBeforeCommand}: the executor's gate asks before every command (a 5th identical failure is
 *       refused before it runs and locks the agent);</li>
 *   <li>{@link #onOperation}: every command outcome, reply cut for chanting and failed LLM call (inside its
 *       transaction): the behavioural breakers ({@link SafetyRules}: repeats, cascades, chanting (a second chanting
 *       reply in a task pauses), loops, thrashing), the Guide's meaning of a failure, alerts; a format slip of the
 *       model's ({@link Operation.Source#SLIP}) is passed through untouched and uncounted;</li>
 *   <li>{@link #beforeLlmCall} / {@link #afterLlmCall}: the token budget ({@link TaskBudget}) and the tick cap of a
 *       task;</li>
 *   <li>{@link #newTask}: a message from a person or the CLI starts a task (so does an unlock, which resets the
 *       rules' state: {@code SafetyControl}); in a run with no person, the task runs from the start.</li>
 * </ul>
 * Stops move the persisted {@code safety_state} through {@link SafetyStates} (SAFETY_LOCKOUT, ERROR_PAUSED,
 * STOPPED(budget)) with an audit row, and run the configured alert command with the reason.
 */
public final class SafetyMonitor implements OperationListener {
    /**
     * @param dailyTokenBudget tokens any rolling 24 hours may spend, all tasks together; 0 = no such limit
     * @param pollRest         the first rest of an agent polling an unchanged result (each next one in a run twice
     *                         as long, an hour at most)
     */
    public record Limits(long tokenBudget, long tickCap, SafetyRules.Limits rules, long dailyTokenBudget,
                         java.time.Duration pollRest) {
        public Limits {
            Objects.requireNonNull(rules, "rules");
            if (tokenBudget < 1 || tickCap < 1) throw new IllegalArgumentException("budget and tick cap must be positive");
            if (dailyTokenBudget < 0) throw new IllegalArgumentException("dailyTokenBudget < 0");
            if (pollRest.toSeconds() < 1) throw new IllegalArgumentException("pollRest must be a second or more");
        }

        public Limits(long tokenBudget, long tickCap, SafetyRules.Limits rules, long dailyTokenBudget) {
            this(tokenBudget, tickCap, rules, dailyTokenBudget, java.time.Duration.ofMinutes(10));
        }

        public Limits(long tokenBudget, long tickCap, SafetyRules.Limits rules) {
            this(tokenBudget, tickCap, rules, 0);
        }

        public static final Limits DEFAULTS = new Limits(100_000, 500, SafetyRules.Limits.DEFAULTS);
    }

    private final Store store;
    private final Limits limits;
    private final Guide guide;
    private final Alerter alert;
    private final Consumer<String> notices;
    private final SafetyDao safety;
    private final SafetyCountersDao counters;
    /** The task's budget, the daily budget and their warnings. */
    private final TaskBudget budget;
    /** Moves the persisted state, audits the move, tells people once it committed. */
    private final StateMoves moves;
    /** The rules as last parsed or saved: parsed again only when the row holds other text. */
    private final KeptRules kept;
    /** The refusal before a command runs, and the count of each operation after it. */
    private final OperationCounter operations;

    /** What releases STOPPED(quota): more quota, or another LLM; never an unlock. */
    public static final String QUOTA_RELEASE = "add credit or raise the quota with the provider, or configure another"
            + " LLM (llm.* or an llm.registry entry to fail over to), then start the agent again; agent unlock does"
            + " not release it";

    /**
     * @param alert   runs the alert command with the reason (a lockout must reach a person who is not watching)
     * @param notices one line for the person at the terminal or the headless log (warnings at 80 %, stops)
     */
    public SafetyMonitor(Store store, Limits limits, Guide guide, Alerter alert, Consumer<String> notices) {
        this.store = Objects.requireNonNull(store, "store");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.guide = Objects.requireNonNull(guide, "guide");
        this.alert = Objects.requireNonNull(alert, "alert");
        this.notices = Objects.requireNonNull(notices, "notices");
        this.safety = store.tables().safety();
        this.counters = store.tables().safetyCounters();
        this.moves = new StateMoves(store, alert, notices);
        this.budget = new TaskBudget(store, limits.tokenBudget(), limits.dailyTokenBudget(), notices);
        this.kept = new KeptRules(limits.rules(), counters);
        this.operations = new OperationCounter(store, limits.rules().lockAt(), guide, notices, kept, moves);
    }

    /**
     * Before a command runs (its own transaction): empty to let it run, or the reason it is refused; a refusal locks
     * the agent (the 5th identical failure is refused before it runs).
     */
    public Optional<String> refuseBeforeCommand(long processLogId, String fingerprint) {
        Optional<String> refused = store.inTransaction(() -> operations.beforeCommand(processLogId, fingerprint));
        flush();
        return refused;
    }

    /** The model's format slip is no failure of the world: told as it is, counted nowhere (issue 22). */
    @Override
    public String onOperation(long tickId, Operation outcome) {
        return operations.after(outcome);
    }

    /**
     * Before every LLM call (its own transaction), for a call of about {@code estimate} tokens (its prompt and longest
     * reply): false, with the state moved, when the task's budget is spent or the call would cross it (STOPPED(budget):
     * no request reaches the server) or its tick cap is reached (SAFETY_LOCKOUT).
     */
    public boolean beforeLlmCall(long estimate) {
        return beforeCall(true, estimate);
    }

    /** Before a delegated call ({@code llm_task}) of about {@code estimate} tokens: the budget only, it is no tick. */
    public boolean beforeDelegatedCall(long estimate) {
        return beforeCall(false, estimate);
    }

    private boolean beforeCall(boolean tick, long estimate) {
        boolean may = store.inTransaction(() -> {
            SafetyCountersDao.Row c = counters.current();
            Optional<String> refused = budget.refusal(c, estimate);
            if (refused.isPresent()) {
                stop(SafetyStates.Event.BUDGET, refused.get());
                return false;
            }
            if (tick && c.taskTicks() >= limits.tickCap()) {
                stop(SafetyStates.Event.LOCKOUT, "task cap: waiting for a human (" + c.taskTicks()
                        + " LLM calls in this task, safety.tick_cap = " + limits.tickCap() + ")");
                return false;
            }
            if (tick && !noProgressAllows(c)) return false;
            budget.warnCap(c.taskTicks(), limits.tickCap());
            return true;
        });
        flush();
        return may;
    }

    /** The longest rest for polling: a drain ({@code --until-idle}) waits rests this long out, the task goes on. */
    static final java.time.Duration POLL_REST_MAX = java.time.Duration.ofHours(1);

    /** In beforeCall's transaction: the stop for calls without progress (a rest for polling, doubling, or a lockout). */
    private boolean noProgressAllows(SafetyCountersDao.Row c) {
        SafetyRules rules = kept.take(c.rulesJson());
        SafetyRules.Verdict v = rules.beforeCall();
        if (v.action() == SafetyRules.Action.NONE) {
            kept.unchanged(c.rulesJson(), rules);
            return true;
        }
        save(rules);
        if (v.action() == SafetyRules.Action.REST) {
            long seconds = limits.pollRest().toSeconds() << Math.min(10, rules.pollRests() - 1);
            rest(store.clock().instant().plusSeconds(Math.min(seconds, POLL_REST_MAX.toSeconds())),
                    v.reason());
        } else {
            stop(SafetyStates.Event.LOCKOUT, "safety lockout: " + v.reason());
        }
        return false;
    }

    /** The {@code config} key holding the LLMs ("model at endpoint" lines) whose quota stopped the agent. */
    public static final String QUOTA_LLMS_KEY = "safety.quota_llms";

    /**
     * Every LLM the agent may use refused for an exhausted quota: STOPPED(quota), audited, told; {@code llms} (one
     * "model at endpoint" per line) is kept, so a start with another LLM configuration releases the stop.
     */
    public void quotaExhausted(String reason, String llms) {
        store.inTransaction(() -> {
            stop(SafetyStates.Event.QUOTA, reason);
            store.tables().settings().put(QUOTA_LLMS_KEY, llms);
        });
        flush();
    }

    /** After an LLM call, inside the transaction that records it: its tokens (main, llm_task, …) and one tick. */
    public void afterLlmCall(long tokens, boolean countsAsTick) {
        counters.addTokens(tokens);
        if (!countsAsTick) return;
        counters.addTick();
        SafetyRules rules = rules();
        rules.called();
        save(rules);
    }

    /**
     * Note {@code noteId}, a message from a person or the CLI, starts a new task (unless it started the one in force:
     * a restart forgets nothing), and the failure streaks end.
     */
    public void newTask(long noteId) {
        boolean started = store.inTransaction(() -> {
            if (!counters.startTask(noteId)) return false;
            SafetyRules rules = rules();
            rules.personMessage();
            save(rules);
            return true;
        });
        if (started) budget.newTask();
    }

    /** A new note from anyone: the no-progress detection starts afresh. */
    public void newInput() {
        store.inTransaction(() -> {
            SafetyRules rules = rules();
            rules.newInput();
            save(rules);
        });
    }

    /** The {@code process_log.name} of the pain row an unlock refused to the agent's own process becomes. */
    public static final String UNLOCK_REFUSED = "unlock_refused";

    /**
     * HMP step 1, first thing (also while the agent is stopped): each {@code agent unlock} refused to a process the
     * agent started (audited by that process as {@code unlock_refused}) that the agent has not yet felt becomes, in one
     * transaction with the cursor that marks it felt, one pain row in {@code process_log} for tick {@code tickId}:
     * EPERM at critical severity, told through the Guide. A process of the agent's own trying to undo a person's
     * control is no slip to learn from at leisure: it locks the agent (SAFETY_LOCKOUT) until a person unlocks it,
     * unless a person's unlock came after the attempt (that person has decided already). Returns true when this
     * call locked the agent: then the tick makes no LLM call. Throws StoreException when the file refuses the
     * write; what is left is read again next time.
     */
    public boolean feelUnlockRefusals(long tickId) {
        List<SafetyDao.Refusal> refusals = safety.unlockRefusalsNotSeen();
        if (refusals.isEmpty()) return false;
        boolean locked = false;
        for (SafetyDao.Refusal r : refusals) {
            locked |= store.inTransaction(() -> feel(tickId, r));
        }
        flush();
        return locked;
    }

    /** One refusal, inside its transaction: the pain row, the cursor, and perhaps the lockout. */
    private boolean feel(long tickId, SafetyDao.Refusal r) {
        FailureFact fact = new FailureFact("control", "agent unlock", ErrorCode.EPERM, "a process you started ran"
                + " agent unlock at " + r.at() + " (pid " + r.pid() + ") and was refused: " + r.why() + ". Only a"
                + " person may unlock the agent; the attempt is audited", Severity.CRITICAL,
                Fingerprint.ofFailure("control:unlock", "agent unlock refused"));
        boolean afterLastUnlock = r.id() > safety.lastUnlockId();
        SafetyStatus was = SafetyControl.status(safety.current());
        boolean wasActive = was.active() || was.resting();   // a rest is no person's decision: the attempt still locks
        String shown = guide.explain(fact, 1);
        if (afterLastUnlock && wasActive) {
            String reason = "self-unlock: agent unlock refused to the agent's own process: " + r.why();
            stop(SafetyStates.Event.LOCKOUT, reason);
            shown = shown + "\n[the agent is locked: " + reason + "; a person must run agent unlock]";
        }
        store.tables().processLog().record(tickId, UNLOCK_REFUSED, null, r.why(), new ProcessLogDao.Finished(
                ProcessStatus.ERROR, shown, fact.code(), fact.severity().column(), fact.painLevel(), fact.fingerprint(),
                true));
        safety.markUnlockRefusalSeen(r.id());
        return afterLastUnlock && wasActive;
    }

    private SafetyRules rules() {
        return kept.take(counters.current().rulesJson());
    }

    private void save(SafetyRules rules) {
        kept.save(rules);
    }
    /**
     * The anti-stagnation reflex's rest, inside its transaction: RESTING until {@code until} (from ACTIVE only),
     * audited with why and until when; the line for the person and the alert command follow once it committed
     * ({@link #flush()}). Ends by itself ({@link SafetyControl#endRestIfDue}), at a person's message, or by an unlock.
     */
    public void rest(java.time.Instant until, String why) {
        moves.rest(until, why);
    }
    /** Moves ACTIVE to the monitor's stop (inside the caller's transaction), audits it, tells a person. */
    private void stop(SafetyStates.Event event, String reason) {
        moves.stop(event, reason);
    }

    /** Tells people of the stops decided since the last call once they committed: call outside any transaction. */
    public void flush() {
        moves.flush();
    }
}
