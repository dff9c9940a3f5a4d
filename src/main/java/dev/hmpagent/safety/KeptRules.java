package dev.hmpagent.safety;

import dev.hmpagent.store.SafetyCountersDao;
import java.util.Objects;

/**
 * The safety rules as last parsed or saved, kept between operations: the persisted JSON is read each time (another
 * process may have unlocked, a transaction may have rolled back), and parsed again only when it is not the text the
 * kept rules came from (issue 36). The task's states seen are stored apart ({@code task_states}, through
 * {@link SafetyCountersDao}): read only when the rules are parsed, written only as they change; the text counts the
 * states entered, so a change of them is a change of the text.
 *
 * <p>A caller {@linkplain #take takes} the rules and then either {@linkplain #save saves} them or says they are
 * {@linkplain #unchanged unchanged}; until then nothing is kept, so rules changed and lost to a failure in between are
 * parsed afresh from the row.
 */
final class KeptRules {
    private final SafetyRules.Limits limits;
    private final SafetyCountersDao counters;
    private String json;
    private SafetyRules rules;

    KeptRules(SafetyRules.Limits limits, SafetyCountersDao counters) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.counters = Objects.requireNonNull(counters, "counters");
    }

    /** The rules the persisted {@code stored} text holds: the kept ones when they came from the same text. */
    synchronized SafetyRules take(String stored) {
        SafetyRules out = rules != null && Objects.equals(json, stored) ? rules
                : SafetyRules.fromStored(limits, stored, counters::taskStates);
        rules = null;
        json = null;
        return out;
    }

    /** {@code taken} was not changed since it was taken from {@code stored}: kept as that text's rules. */
    synchronized void unchanged(String stored, SafetyRules taken) {
        json = stored;
        rules = taken;
    }

    /**
     * Stores {@code changed}, in the caller's transaction: its text in the row, what changed in its states seen in
     * their table; kept as the row's rules once both are written.
     */
    synchronized void save(SafetyRules changed) {
        TaskLedger.Changes states = changed.ledgerChanges();
        String text = changed.toStoredJson();
        counters.saveRules(text, states.cleared(), states.added(),
                states.forgotten() > 0 ? TaskLedger.REMEMBERED : 0);
        json = text;
        rules = changed;
    }
}
