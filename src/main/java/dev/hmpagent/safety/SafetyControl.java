package dev.hmpagent.safety;

import dev.hmpagent.store.ControlRequestsDao;
import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.SafetyCountersDao;
import dev.hmpagent.store.SafetyDao;
import dev.hmpagent.store.Store;
import java.util.Objects;
import java.util.Optional;

/**
 * What a human does to the persisted safety state, from any process: halt and unlock. Each is one
 * transaction: the move (checked against {@link SafetyStates}), its audit row, and a control
 * request that wakes a running agent at once. Works the same whether an agent runs on the file or not.
 */
public final class SafetyControl {
    /** What a request did. */
    public enum Result { MOVED, ALREADY, REFUSED }

    /** Why a rest ended by itself at its end time (the other why: "a message from a person"). */
    public static final String REST_TIME_UP = "its time is up";


    /**
     * What an unlock or a halt changed: its result, and the safety state before and after it.
     *
     * @param budgetAdded tokens this request added to {@code safety_counters.extra_budget} (0 for none)
     */
    public record Change(Result result, SafetyStatus before, SafetyStatus after, long budgetAdded) {
        public Change(Result result, SafetyStatus before, SafetyStatus after) {
            this(result, before, after, 0);
        }
    }

    private final Store store;
    private final SafetyDao safety;
    private final SafetyCountersDao counters;
    private final ControlRequestsDao requests;
    private final ProcessLogDao processLog;
    private final NotesDao notes;

    public SafetyControl(Store store) {
        this.store = Objects.requireNonNull(store, "store");
        this.safety = store.tables().safety();
        this.counters = store.tables().safetyCounters();
        this.requests = store.tables().controlRequests();
        this.processLog = store.tables().processLog();
        this.notes = store.tables().notes();
    }

    public SafetyStatus current() {
        return status(safety.current());
    }

    /**
     * Stops the agent: STOPPED(halt), persisted, audited; commands not yet run end as EHALT (never run later);
     * a running agent cancels its LLM call at once.
     */
    public Change halt(String reason, Requester who) {
        return store.inTransaction(() -> {
            SafetyStatus before = current();
            if (before.state() == SafetyState.STOPPED) {
                processLog.haltPending("the agent was halted (" + who.user() + ": " + reason + ") before this command ran");
                requests.add("halt", reason, who);   // a running agent still cancels whatever it may be doing
                return new Change(Result.ALREADY, before, before);
            }
            SafetyStates.Edge edge = SafetyStates.require(SafetyStates.Event.HALT, before);
            SafetyStatus after = move(SafetyStates.Event.HALT, before, edge, reason, who);
            processLog.haltPending("the agent was halted (" + who.user() + ": " + reason + ") before this command ran");
            requests.add("halt", reason, who);
            return new Change(Result.MOVED, before, after);
        });
    }

    /** Releases a human-releasable stop; refuses STOPPED(budget|quota); says so when already ACTIVE. */
    public Change unlock(String reason, Requester who) {
        return unlock(reason, who, 0);
    }

    /**
     * Releases a stop, as {@link #unlock(String, Requester)}; with {@code addBudget} &gt; 0 also releases
     * STOPPED(budget), adding that many tokens to {@code safety_counters.extra_budget}. STOPPED(quota) is always
     * refused. One transaction: the move, its audit row, the budget, the reset of the behavioural counters
     * (rules, tick count) and, unless budget was added to a budget stop (the task goes on), a new task; and a
     * control request that wakes a running agent. An ACTIVE agent is left alone and gets no budget.
     */
    public Change unlock(String reason, Requester who, long addBudget) {
        if (addBudget < 0) throw new IllegalArgumentException("addBudget must not be negative: " + addBudget);
        return store.inTransaction(() -> {
            SafetyStatus before = current();
            if (before.active()) return new Change(Result.ALREADY, before, before);
            SafetyStates.Event event = addBudget > 0 ? SafetyStates.Event.UNLOCK_ADD_BUDGET : SafetyStates.Event.UNLOCK;
            Optional<SafetyStates.Edge> edge = SafetyStates.edge(event, before);
            if (edge.isEmpty()) return new Change(Result.REFUSED, before, before);
            String detail = addBudget > 0 ? withBudget(addBudget, reason) : reason;
            SafetyStatus after = move(event, before, edge.get(), detail, who);
            UnlockNotice.add(store.tables().notes(), before, reason, who, after.since());
            boolean taskGoesOn = addBudget > 0 && before.reason().equals(Optional.of(StopReason.BUDGET));
            // a new task starts with the configured budget; budget added now is for the task that follows
            counters.resetAfterUnlock(after.since(), !taskGoesOn);
            if (addBudget > 0) counters.addExtraBudget(addBudget, after.since());
            requests.add("unlock", detail, who);
            return new Change(Result.MOVED, before, after, addBudget);
        });
    }

    /**
     * {@code /budget +N}: adds {@code tokens} to the task in force, in place. STOPPED(budget) is released as by
     * {@code agent unlock --add-budget N} (the same move and audit; the task goes on); in any other state the budget
     * grows and the state stays, audited all the same ({@code add_budget}): raising a budget is a person's act. One
     * transaction.
     */
    public Change raiseBudget(long tokens, String reason, Requester who) {
        if (tokens < 1) throw new IllegalArgumentException("tokens must be positive: " + tokens);
        return store.inTransaction(() -> {
            SafetyStatus before = current();
            if (before.reason().equals(Optional.of(StopReason.BUDGET))) return unlock(reason, who, tokens);
            java.time.Instant now = store.clock().instant();
            counters.addExtraBudget(tokens, now);
            safety.audit(new SafetyDao.Audit(now, "add_budget", before.label(), before.label(), null,
                    withBudget(tokens, reason), who.pid(), who.user(), who.host()));
            return new Change(Result.ALREADY, before, before, tokens);
        });
    }

    /**
     * At start: releases STOPPED(quota) when the LLMs now configured ({@code llms}, one "model at endpoint" per line)
     * are not those whose quota ran out; the config change is the release, audited. Returns the outcome.
     */
    public Change releaseQuotaIfConfigChanged(String llms, Requester who) {
        return store.inTransaction(() -> {
            SafetyStatus before = current();
            Optional<SafetyStates.Edge> edge = SafetyStates.edge(SafetyStates.Event.CONFIG_CHANGE, before);
            if (edge.isEmpty()) return new Change(Result.ALREADY, before, before);
            String spent = store.tables().settings().get(SafetyMonitor.QUOTA_LLMS_KEY).orElse("");
            if (spent.equals(llms)) return new Change(Result.REFUSED, before, before);
            SafetyStatus after = move(SafetyStates.Event.CONFIG_CHANGE, before, edge.get(),
                    "started with another LLM configuration than the one whose quota ran out", who);
            counters.resetAfterUnlock(after.since(), true);
            return new Change(Result.MOVED, before, after);
        });
    }

    /**
     * The running agent, while the reflex's rest holds: ends it (RESTING to ACTIVE, audited as {@code rest_end}) when a
     * message from a person or the CLI waits unread, or its end time has come; one transaction. Returns why it ended,
     * or empty while it holds (or when the agent does not rest). Audited as the agent's. No command of the LLM's leads
     * here.
     */
    public Optional<String> endRestIfDue() {
        return endRestIfDue(s -> !store.clock().instant().isBefore(s.until().orElseThrow()));
    }

    /**
     * As {@link #endRestIfDue()}, whether the rest's time is up told by {@code timeUp} (the running agent measures it
     * on the monotonic clock, so a wall clock stepped back does not lengthen the rest).
     */
    public Optional<String> endRestIfDue(java.util.function.Predicate<SafetyStatus> timeUp) {
        // asked every loop iteration while the rest holds: reads only, until there is something to write
        if (restEnd(current(), timeUp) == null) return Optional.empty();
        Requester me = Requester.thisProcess();
        Requester agent = new Requester(me.pid(), "agent", me.host());   // as the monitor's own moves are audited
        return store.inTransaction(() -> {
            SafetyStatus before = current();   // read again in the write: an unlock or a halt may have come between
            String why = restEnd(before, timeUp);
            if (why == null) return Optional.<String>empty();
            SafetyStates.Event event = SafetyStates.Event.REST_END;
            move(event, before, SafetyStates.require(event, before), "the rest ended: " + why, agent);
            return Optional.of(why);
        });
    }

    /** Why the rest {@code now} ends now, or null while it holds (or when {@code now} is no rest). */
    private String restEnd(SafetyStatus now, java.util.function.Predicate<SafetyStatus> timeUp) {
        if (!now.resting()) return null;
        if (notes.maxUnreadId(NoteFilter.PERSON_OR_CLI) > 0) return "a message from a person";
        return timeUp.test(now) ? REST_TIME_UP : null;
    }

    /** Tokens people added with {@code --add-budget}, all told. */
    public long extraBudget() {
        return counters.extraBudget();
    }

    /** "+5000 tokens (--add-budget)" and the person's reason, for the audit. */
    private static String withBudget(long tokens, String reason) {
        String added = "+" + tokens + " tokens (--add-budget)";
        return reason == null || reason.isBlank() ? added : added + ": " + reason;
    }

    private SafetyStatus move(SafetyStates.Event event, SafetyStatus before, SafetyStates.Edge edge, String reason,
                              Requester who) {
        SafetyStatus after = new SafetyStatus(edge.to(), edge.toReason(), reason, store.clock().instant());
        safety.move(new SafetyDao.Row(after.state().name(), after.reason().map(StopReason::columnName).orElse(null),
                        after.detail().isEmpty() ? null : after.detail(), after.since()),
                new SafetyDao.Audit(after.since(), event.auditName(), before.label(), after.label(),
                        after.reason().map(StopReason::columnName).orElse(null), reason, who.pid(), who.user(), who.host()));
        return after;
    }

    static SafetyStatus status(SafetyDao.Row row) {
        return new SafetyStatus(SafetyState.valueOf(row.state()), StopReason.fromColumn(row.reason()), row.detail(),
                row.since(), Optional.ofNullable(row.until()));
    }
}
