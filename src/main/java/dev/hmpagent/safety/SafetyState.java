package dev.hmpagent.safety;

/**
 * The persisted safety state (DESIGN.md, "Decisions"): the only state that survives a restart.
 * Not what the tick thread is doing (its phase) and not how one tick ended (its outcome).
 */
public enum SafetyState {
    /** Thinking as usual. */
    ACTIVE,
    /** Stopped by a human ({@code agent halt}) or a limit (budget, quota); see {@link StopReason}. */
    STOPPED,
    /** Locked by the SafetyMonitor until a human unlocks it. */
    SAFETY_LOCKOUT,
    /** Paused after an error cascade until a human unlocks it. */
    ERROR_PAUSED,
    /**
     * The anti-stagnation reflex's rest, with its end time ({@link SafetyStatus#until()}): it ends by itself then, at a
     * message from a person, or with {@code agent unlock}; never by anything the LLM writes.
     */
    RESTING
}
