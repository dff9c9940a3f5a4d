package dev.hmpagent.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The chain of agents a message passed (issue 37), carried in the A2A message's {@code metadata} under {@link #KEY}:
 * the ids of the agents that sent it on, the first sender first. An agent refuses a message whose trace holds itself
 * (it would answer its own question: a loop between agents) or that passed more agents than its limit; a message it
 * sends while answering one carries that one's trace and its own id after it.
 */
public record Trace(List<String> agents) {
    /** The message metadata key that holds the trace. */
    public static final String KEY = "trace";
    /** Most characters of one agent id in a trace: longer ones are not ids of ours and are cut. */
    private static final int ID_CHARS = 200;

    public Trace {
        agents = List.copyOf(agents);
    }

    public static Trace empty() {
        return new Trace(List.of());
    }

    /** The trace in an A2A message's metadata; empty when there is none or it is not an array of strings. */
    public static Trace of(JsonNode message) {
        JsonNode t = message == null ? null : message.path("metadata").get(KEY);
        if (t == null || !t.isArray()) return empty();
        List<String> out = new ArrayList<>();
        for (JsonNode id : t) {
            if (id.isTextual()) out.add(id.asText().length() > ID_CHARS ? id.asText().substring(0, ID_CHARS) : id.asText());
        }
        return new Trace(out);
    }

    /** Parses what {@link #json()} wrote; empty for anything else. */
    public static Trace parse(String json) {
        try {
            ObjectNode wrap = JsonNodeFactory.instance.objectNode();
            wrap.putObject("metadata").set(KEY, dev.hmpagent.text.Json.mapper().readTree(json == null ? "[]" : json));
            return of(wrap);
        } catch (com.fasterxml.jackson.core.JsonProcessingException unreadable) {
            return empty();
        }
    }

    /** Why agent {@code self} must refuse a message with this trace, or empty when it may take it. */
    public Optional<String> refusal(String self, int maxDepth) {
        Objects.requireNonNull(self, "self");
        if (agents.contains(self)) {
            return Optional.of("a loop between agents: this message already passed this agent (trace "
                    + String.join(" -> ", agents) + "); answer it where it came from instead of sending it on");
        }
        if (agents.size() > maxDepth) {
            return Optional.of("the message passed " + agents.size() + " agents, more than a2a.max_depth = " + maxDepth
                    + " allows; answer it without asking further agents");
        }
        return Optional.empty();
    }

    /** The trace a message sent on by agent {@code self} carries. */
    public Trace then(String self) {
        List<String> next = new ArrayList<>(agents);
        next.add(Objects.requireNonNull(self, "self"));
        return new Trace(next);
    }

    /** As a JSON array, for the message's metadata and the task's row. */
    public String json() {
        return array().toString();
    }

    public ArrayNode array() {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        agents.forEach(a::add);
        return a;
    }
}
