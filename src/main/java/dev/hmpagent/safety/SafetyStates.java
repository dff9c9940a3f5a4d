package dev.hmpagent.safety;

import java.util.List;
import java.util.Optional;

/**
 * The one transition table of {@code safety_state}. Each edge: an event, the states it leaves,
 * and the state it enters. A move not in the table is illegal and throws. The human edges are here (halt,
 * unlock, unlock with more budget); the SafetyMonitor adds its own.
 */
public final class SafetyStates {
    /** What moves the state. */
    public enum Event {
        HALT, UNLOCK,
        /** {@code agent unlock --add-budget N}: the only release of STOPPED(budget); audited as an unlock. */
        UNLOCK_ADD_BUDGET,
        /** The SafetyMonitor's own stops. */
        LOCKOUT, ERROR_PAUSE, BUDGET,
        /** Every LLM the agent may use said its quota or credit is exhausted. */
        QUOTA,
        /** The agent started with another LLM configuration than the one whose quota ran out. */
        CONFIG_CHANGE,
        /** The anti-stagnation reflex rests the agent until a time. */
        REST,
        /** The rest ends by itself: its time is up, or a person's message waits. */
        REST_END;

        /**
         * The {@code safety_audit.event} text: {@code halt}, {@code unlock}, {@code lockout}, {@code error_pause},
         * {@code budget}, {@code quota}, {@code config_change}, {@code rest}, {@code rest_end}.
         */
        public String auditName() {
            return this == UNLOCK_ADD_BUDGET ? "unlock" : name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** A legal move: {@code event} from {@code from} (with {@code fromReason}, when it matters) to {@code to}. */
    public record Edge(Event event, SafetyState from, Optional<StopReason> fromReason, SafetyState to, Optional<StopReason> toReason) { }

    private static final Optional<StopReason> ANY = Optional.empty();
    private static final List<Edge> EDGES = List.of(
            // a human halt is obeyed first, whatever the state
            new Edge(Event.HALT, SafetyState.ACTIVE, ANY, SafetyState.STOPPED, Optional.of(StopReason.HALT)),
            new Edge(Event.HALT, SafetyState.SAFETY_LOCKOUT, ANY, SafetyState.STOPPED, Optional.of(StopReason.HALT)),
            new Edge(Event.HALT, SafetyState.ERROR_PAUSED, ANY, SafetyState.STOPPED, Optional.of(StopReason.HALT)),
            new Edge(Event.HALT, SafetyState.RESTING, ANY, SafetyState.STOPPED, Optional.of(StopReason.HALT)),
            // no HALT edge out of STOPPED: the agent is stopped already, and turning a budget or quota stop into a
            // halt would let a plain unlock release it
            // only a human releases: any stop except a budget or quota one (that needs more budget)
            new Edge(Event.UNLOCK, SafetyState.STOPPED, Optional.of(StopReason.HALT), SafetyState.ACTIVE, ANY),
            new Edge(Event.UNLOCK, SafetyState.SAFETY_LOCKOUT, ANY, SafetyState.ACTIVE, ANY),
            new Edge(Event.UNLOCK, SafetyState.ERROR_PAUSED, ANY, SafetyState.ACTIVE, ANY),
            new Edge(Event.UNLOCK, SafetyState.RESTING, ANY, SafetyState.ACTIVE, ANY),
            // more budget releases a budget stop (and, given with any other human-releasable stop, is added too);
            // a quota stop needs a config change, never an unlock
            new Edge(Event.UNLOCK_ADD_BUDGET, SafetyState.STOPPED, Optional.of(StopReason.BUDGET), SafetyState.ACTIVE, ANY),
            new Edge(Event.UNLOCK_ADD_BUDGET, SafetyState.STOPPED, Optional.of(StopReason.HALT), SafetyState.ACTIVE, ANY),
            new Edge(Event.UNLOCK_ADD_BUDGET, SafetyState.SAFETY_LOCKOUT, ANY, SafetyState.ACTIVE, ANY),
            new Edge(Event.UNLOCK_ADD_BUDGET, SafetyState.ERROR_PAUSED, ANY, SafetyState.ACTIVE, ANY),
            new Edge(Event.UNLOCK_ADD_BUDGET, SafetyState.RESTING, ANY, SafetyState.ACTIVE, ANY),
            // the SafetyMonitor's own stops, only from ACTIVE: a stop already in force is not overwritten
            new Edge(Event.LOCKOUT, SafetyState.ACTIVE, ANY, SafetyState.SAFETY_LOCKOUT, ANY),
            new Edge(Event.ERROR_PAUSE, SafetyState.ACTIVE, ANY, SafetyState.ERROR_PAUSED, ANY),
            new Edge(Event.BUDGET, SafetyState.ACTIVE, ANY, SafetyState.STOPPED, Optional.of(StopReason.BUDGET)),
            new Edge(Event.QUOTA, SafetyState.ACTIVE, ANY, SafetyState.STOPPED, Optional.of(StopReason.QUOTA)),
            // a rest is no stop in force: a result that arrives while it holds (a process ending) may still lock or pause
            new Edge(Event.LOCKOUT, SafetyState.RESTING, ANY, SafetyState.SAFETY_LOCKOUT, ANY),
            new Edge(Event.ERROR_PAUSE, SafetyState.RESTING, ANY, SafetyState.ERROR_PAUSED, ANY),
            // the reflex's rest: only from ACTIVE, and it ends by itself (its time, a person's message) or by an unlock;
            // nothing the LLM writes reaches either edge
            new Edge(Event.REST, SafetyState.ACTIVE, ANY, SafetyState.RESTING, ANY),
            new Edge(Event.REST_END, SafetyState.RESTING, ANY, SafetyState.ACTIVE, ANY),
            // the config change a quota stop waits for: seen at start, when the LLMs configured differ from the spent one
            new Edge(Event.CONFIG_CHANGE, SafetyState.STOPPED, Optional.of(StopReason.QUOTA), SafetyState.ACTIVE, ANY));

    private SafetyStates() { }

    /** The state {@code event} moves {@code from} into, or empty when the table has no such move. */
    public static Optional<Edge> edge(Event event, SafetyStatus from) {
        return EDGES.stream().filter(e -> e.event() == event && e.from() == from.state()
                && (e.fromReason().isEmpty() || e.fromReason().equals(from.reason()))).findFirst();
    }

    /** The state {@code event} moves {@code from} into; throws when the move is illegal. */
    public static Edge require(Event event, SafetyStatus from) {
        return edge(event, from).orElseThrow(() -> new IllegalStateException(
                "illegal safety move: " + event + " from " + from.label()));
    }
}
