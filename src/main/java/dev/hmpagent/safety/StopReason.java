package dev.hmpagent.safety;

import java.util.Locale;
import java.util.Optional;

/** Why the agent is {@link SafetyState#STOPPED}. */
public enum StopReason {
    HALT, BUDGET, QUOTA;

    /** The column text: halt, budget, quota. */
    public String columnName() { return name().toLowerCase(Locale.ROOT); }

    static Optional<StopReason> fromColumn(String text) {
        if (text == null) return Optional.empty();
        return Optional.of(valueOf(text.toUpperCase(Locale.ROOT)));
    }
}
