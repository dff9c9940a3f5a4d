package dev.hmpagent.safety;

import dev.hmpagent.store.Requester;
import dev.hmpagent.store.SafetyDao;
import dev.hmpagent.store.Store;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The SafetyMonitor's moves of the persisted {@code safety_state} (a lockout, a pause, a budget stop, a rest): each
 * through {@link SafetyStates}' table inside the caller's transaction, with its audit row; the line for the person and
 * the alert command only once that transaction committed ({@link #flush()}). On the tick thread, as the monitor is.
 */
final class StateMoves {
    /** A stop decided, and what releases it (said with it: an unlock does not release every stop). */
    private record Decided(String stop, String release) { }

    private final Store store;
    private final SafetyDao safety;
    private final Alerter alert;
    private final Consumer<String> notices;
    /** Stops decided inside a transaction: told to people only once it committed. */
    private final List<Decided> decided = new ArrayList<>();

    StateMoves(Store store, Alerter alert, Consumer<String> notices) {
        this.store = store;
        this.safety = store.tables().safety();
        this.alert = alert;
        this.notices = notices;
    }

    /** Moves ACTIVE by {@code event} (inside the caller's transaction), audits it; nothing when already stopped. */
    private void move(SafetyStates.Event event, String reason, Optional<Instant> until) {
        SafetyStatus before = SafetyControl.status(safety.current());
        Optional<SafetyStates.Edge> edge = SafetyStates.edge(event, before);
        if (edge.isEmpty()) return;   // already stopped: a halt or another stop came first
        SafetyStatus after = new SafetyStatus(edge.get().to(), edge.get().toReason(), reason, store.clock().instant(),
                until);
        Requester me = Requester.thisProcess();
        safety.move(new SafetyDao.Row(after.state().name(), after.reason().map(StopReason::columnName).orElse(null),
                        reason, after.since(), until.orElse(null)),
                new SafetyDao.Audit(after.since(), event.auditName(), before.label(), after.label(),
                        after.reason().map(StopReason::columnName).orElse(null), reason, me.pid(), "agent", me.host()));
        decided.add(new Decided(after.label() + ": " + reason, release(after)));
    }

    /** Moves ACTIVE to the monitor's stop (inside the caller's transaction), audits it; no end time. */
    void stop(SafetyStates.Event event, String reason) {
        move(event, reason, Optional.empty());
    }

    /** Moves ACTIVE to RESTING until {@code until} (inside the caller's transaction), audited with why and until when. */
    void rest(Instant until, String why) {
        move(SafetyStates.Event.REST, why + "; until " + until, Optional.of(until));
    }

    /**
     * Tells people of the stops decided since the last call — the line for the terminal or log, and the alert
     * command — once their transaction committed: a stop whose transaction rolled back (the state is ACTIVE again)
     * is dropped, never alerted. Call outside any transaction.
     */
    void flush() {
        if (decided.isEmpty()) return;
        boolean active = SafetyControl.status(safety.current()).active();   // throws while the file is unreadable: kept
        List<Decided> stops = List.copyOf(decided);
        decided.clear();
        if (active) return;
        for (Decided d : stops) {
            notices.accept(d.stop() + " — " + d.release());
            alert.alert(d.stop());
        }
    }

    /** What a person does to release {@code stop}: an unlock, more budget, or (quota) credit or another LLM. */
    private static String release(SafetyStatus stop) {
        if (stop.resting()) {
            return "it ends by itself at " + stop.until().orElseThrow() + ", at a message from a person, or with agent"
                    + " unlock";
        }
        if (stop.reason().equals(Optional.of(StopReason.QUOTA))) return SafetyMonitor.QUOTA_RELEASE;
        if (stop.reason().equals(Optional.of(StopReason.BUDGET))) {
            return "a person must run agent unlock --add-budget N (tokens), /budget +N in the REPL, or raise"
                    + " safety.token_budget";
        }
        return "a person must run agent unlock";
    }
}
