package dev.hmpagent.safety;

import java.util.Objects;

/**
 * The safety rules as last parsed or saved, kept between operations: the persisted JSON is read each time (another
 * process may have unlocked, a transaction may have rolled back), and parsed again only when it is not the text the
 * kept rules came from. The task ledger's JSON grows with the states the task has seen, so parsing it at every command,
 * call and tick cost more than the rest of the monitor (issue 36).
 *
 * <p>A caller {@linkplain #take takes} the rules and then either {@linkplain #save saves} them or says they are
 * {@linkplain #unchanged unchanged}; until then nothing is kept, so rules changed and lost to a failure in between are
 * parsed afresh from the row.
 */
final class KeptRules {
    private final SafetyRules.Limits limits;
    private String json;
    private SafetyRules rules;

    KeptRules(SafetyRules.Limits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    /** The rules the persisted {@code stored} text holds: the kept ones when they came from the same text. */
    synchronized SafetyRules take(String stored) {
        SafetyRules out = rules != null && Objects.equals(json, stored) ? rules : SafetyRules.fromJson(limits, stored);
        rules = null;
        json = null;
        return out;
    }

    /** {@code taken} was not changed since it was taken from {@code stored}: kept as that text's rules. */
    synchronized void unchanged(String stored, SafetyRules taken) {
        json = stored;
        rules = taken;
    }

    /** The text to persist for {@code changed}, kept as its rules once written by the caller. */
    synchronized String save(SafetyRules changed) {
        String text = changed.toJson();
        json = text;
        rules = changed;
        return text;
    }
}
