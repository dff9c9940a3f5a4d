package dev.hmpagent.llm.wire;

import java.util.Objects;

/**
 * A piece of a streamed tool call: the index of the call it belongs to (OpenAI's {@code tool_calls[].index},
 * Anthropic's content block index), and what this piece carries of its id, its name and its arguments' JSON text
 * (each may be empty; arguments come in fragments to be joined).
 */
public record ToolCallPart(int index, String id, String name, String arguments) {
    public ToolCallPart {
        id = Objects.requireNonNullElse(id, "");
        name = Objects.requireNonNullElse(name, "");
        arguments = Objects.requireNonNullElse(arguments, "");
    }
}
