package dev.hmpagent.safety;

/**
 * Who is told when the agent stops on its own: a lockout or a stop must reach a person who is not watching. The
 * monitor calls it once the stop committed. Safety starts no process itself: the implementation that runs {@code
 * safety.alert_command} lives in the process room, and the composition root plugs it in.
 */
@FunctionalInterface
public interface Alerter {
    /** Tells someone why the agent stopped; never blocks the tick thread and never throws. */
    void alert(String reason);
}
