package dev.hmpagent.cycle;

/**
 * The resource breakers around every LLM call of the cycle (the SafetyMonitor's token budget and tick cap), and the
 * unlocks refused to the agent's own processes, which the cycle reads first in every tick.
 * {@link #beforeLlmCall} runs in its own transaction; {@link #afterLlmCall} inside the tick's.
 */
public interface LlmBreakers {
    /** No limits. */
    LlmBreakers NONE = new LlmBreakers() {
        @Override
        public boolean beforeLlmCall() { return true; }

        @Override
        public void afterLlmCall(long tokens, boolean countsAsTick) { }

        @Override
        public void newTask(long noteId) { }
    };

    /** False when the call must not be made (the safety state was moved: budget spent, tick cap reached). */
    boolean beforeLlmCall();

    /**
     * As {@link #beforeLlmCall()}, for a call that may cost about {@code estimate} tokens (its prompt and longest
     * reply): false too when the call would cross the task's budget, so no reply overshoots it.
     */
    default boolean beforeLlmCall(long estimate) {
        return beforeLlmCall();
    }

    /** The tokens a call spent, counted in the transaction that records it; a main-cycle call is also a tick. */
    void afterLlmCall(long tokens, boolean countsAsTick);

    /**
     * Note {@code noteId}, a message from a person or the CLI, starts a task: its budget and tick cap count from
     * zero (unless that note started the task in force, as after a restart).
     */
    void newTask(long noteId);

    /** A new note from anyone: what follows is not a loop without progress, whatever it repeats. */
    default void newInput() { }

    /**
     * Every LLM the cycle may use refused for an exhausted quota or credit: the agent stops (STOPPED(quota)) until it
     * starts with another LLM configuration.
     */
    default void quotaExhausted(String reason) { }

    /**
     * HMP step 1, first thing: each {@code agent unlock} refused to a process the agent started, not yet recorded,
     * becomes a critical pain row for tick {@code tickId} (own transactions); true when one locked the agent just now,
     * and the tick then makes no LLM call.
     */
    default boolean feelUnlockRefusals(long tickId) { return false; }

    /** After every tick, outside any transaction: stops decided in it are told to people now that they committed. */
    default void afterTick() { }
}
