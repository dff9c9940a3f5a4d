package dev.hmpagent.stagnation;

import java.time.Instant;

/**
 * The sleep strategy's way to rest the agent: the caller moves the persisted safety state to RESTING (audited, told,
 * alerted), which the LLM cannot end; it ends by itself at {@code until}, at a message from a person, or by an unlock.
 */
public interface Idling {
    /** The agent rests from tick {@code tickId} until {@code until}; {@code why} says what the reflex saw. */
    void restUntil(long tickId, Instant until, String why);
}
