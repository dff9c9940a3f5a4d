package dev.hmpagent.cycle;

/**
 * When the {@link TickLoop} runs its next iteration: wake-or-poll for the REPL, a fixed rate for
 * {@code agent run}. A pacer only does the arithmetic over the readings it is given; the loop does
 * the waiting (so stop and end can always cut a wait short). A draining loop does not ask it. Not
 * thread-safe: one pacer belongs to one loop and is called on its tick thread.
 */
public interface Pacer {
    /** Ticks per second of a fixed-rate pacer; 0 for one that waits for work. */
    double hz();

    /** The loop starts; its first iteration runs at once, at {@code now} ({@link TimeSource#nanoTime()}). */
    void start(long now);

    /** An iteration ended at {@code now}, having done work or not: when the next one runs. */
    Pace next(long now, boolean worked);
}
