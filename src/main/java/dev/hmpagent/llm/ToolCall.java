package dev.hmpagent.llm;

import java.util.Objects;

/**
 * One tool call a model made, as it arrived: the provider's call id ("" when it gave none), the tool's name and its
 * arguments as JSON text (which may be malformed: the cycle says so to the model, as for a malformed command).
 */
public record ToolCall(String id, String name, String argumentsJson) {
    public ToolCall {
        id = id == null ? "" : id;
        Objects.requireNonNull(name, "name");
        argumentsJson = argumentsJson == null ? "" : argumentsJson;
    }
}
