package dev.hmpagent.safety;

/**
 * Gives a pain fact its meaning: turns a {@link FailureFact} into the text the LLM sees as that command's
 * result in the next tick. The core decides what happened (the fact, its severity, how often it repeated);
 * a Guide decides how to say it. Chosen by {@code safety.guide}; see {@link Guides}.
 */
public interface Guide {
    /** The name {@code safety.guide} uses: {@code safety}, {@code learning} or {@code debugging}. */
    String name();

    /**
     * The text the LLM sees for {@code fact}: names its source, its message and its pain level, and tells the
     * LLM to stop repeating and change strategy.
     *
     * @param repeats how many times this fingerprint has failed in the current streak, this failure included (1 = first)
     */
    String explain(FailureFact fact, int repeats);
}
