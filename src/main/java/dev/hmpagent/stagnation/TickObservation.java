package dev.hmpagent.stagnation;

/**
 * What the anti-stagnation reflex needs to know about one tick that called the LLM. The caller computes every
 * field; {@link StagnationSigns} only reads them.
 *
 * @param tickId        the tick's id
 * @param novelty       0..1, how new its reply is next to the previous reply ({@link ReplyComparator})
 * @param identical     the reply is word for word the previous reply
 * @param repeatOfTick  the tick of an earlier reply (within the repeat window, the previous reply included) this
 *                      reply equals word for word; 0 if none
 * @param stimulus      a new note or process result was shown this tick
 * @param personMessage a new message from a person was shown this tick (it opens a new window, and counts as a
 *                      stimulus)
 * @param growth        a new concept or link was created this tick (or the tick before: the caller decides)
 */
record TickObservation(long tickId, double novelty, boolean identical, long repeatOfTick, boolean stimulus,
                              boolean personMessage, boolean growth) {
    public TickObservation {
        if (!(novelty >= 0 && novelty <= 1)) {
            throw new IllegalArgumentException("novelty must be 0..1, was " + novelty + " (tick " + tickId + ")");
        }
        if (repeatOfTick < 0 || (repeatOfTick > 0 && repeatOfTick >= tickId)) {
            throw new IllegalArgumentException("repeatOfTick must be 0 or an earlier tick than " + tickId
                    + ", was " + repeatOfTick);
        }
    }

    /** Whether anything new came in: a note, a process result or a person's message. */
    public boolean anyStimulus() {
        return stimulus || personMessage;
    }

    /** Whether the reply repeats an earlier one word for word. */
    public boolean repeats() {
        return identical || repeatOfTick > 0;
    }
}
