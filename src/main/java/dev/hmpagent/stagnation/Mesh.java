package dev.hmpagent.stagnation;

import java.util.List;

/**
 * The mesh request's way to other agents (issue 37): which peers the agent may send to without asking a person, and a
 * question queued to each as a {@code peer_message} command of the tick, which the cycle runs after the reflex, off the
 * tick like any other; each answer comes back as that command's result. {@link #NONE} while no peer may be asked.
 */
public interface Mesh {
    Mesh NONE = new Mesh() {
        @Override
        public List<String> askable() {
            return List.of();
        }

        @Override
        public void ask(long tickId, List<String> peers, String text) {
            throw new IllegalStateException("no peer may be asked");
        }
    };

    /** The names of the peers with a URL that [a2a] lets the agent send to without asking (allowed, or a child). */
    List<String> askable();

    /** Queues {@code text} to each of {@code peers}: a {@code peer_message} of tick {@code tickId}, in this transaction. */
    void ask(long tickId, List<String> peers, String text);
}
