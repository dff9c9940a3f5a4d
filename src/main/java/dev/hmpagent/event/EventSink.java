package dev.hmpagent.event;

/** Where user-visible events go. Implementations must be safe to call from any thread. */
@FunctionalInterface
public interface EventSink {
    EventSink DISCARD = event -> { };

    void emit(AgentEvent event);
}
