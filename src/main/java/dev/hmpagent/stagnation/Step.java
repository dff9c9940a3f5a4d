package dev.hmpagent.stagnation;

import dev.hmpagent.store.ReflexDao;
import java.util.ArrayList;
import java.util.List;

/**
 * One step of the reflex after one reply, as it goes: the state as the step and its strategies change it, what to tell
 * the person, whether the next tick must read its settings again, and the question put to the person (if any).
 */
final class Step {
    final long tickId;
    final double novelty;
    final List<String> lines = new ArrayList<>();
    ReflexDao.State state;
    boolean changed;
    /** A recent tick came after news from the world: only the gentle strategies, no slow-down. */
    boolean progressed;
    StagnationReflex.Question question;
    /** Commands were queued for this tick (a mesh request): the cycle runs them after the reflex. */
    boolean queued;

    Step(long tickId, double novelty, ReflexDao.State state) {
        this.tickId = tickId;
        this.novelty = novelty;
        this.state = state;
    }
}
