package dev.hmpagent.testing;

import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps every event for assertions. */
public class RecordingSink implements EventSink {
    public final List<AgentEvent> events = new CopyOnWriteArrayList<>();

    @Override
    public void emit(AgentEvent event) {
        events.add(event);
    }

    public <T extends AgentEvent> List<T> of(Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }
}
