package dev.hmpagent.stagnation;

import java.time.Instant;

/** The sleep strategy's way to idle the LLM: the caller writes the idle the next ticks obey. */
public interface Idling {
    /** The LLM idles from tick {@code tickId} until {@code until}, or until a message from the person wakes it. */
    void idleUntil(long tickId, Instant until);
}
