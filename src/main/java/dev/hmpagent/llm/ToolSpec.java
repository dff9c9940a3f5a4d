package dev.hmpagent.llm;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * One tool offered to a model that calls tools natively: its name (a command type, or {@code use}), a one-line
 * description, and the JSON Schema of its arguments object. Each provider's adapter writes it in its own shape.
 */
public record ToolSpec(String name, String description, JsonNode schema) {
    public ToolSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        schema = Objects.requireNonNull(schema, "schema").deepCopy();
        if (name.isBlank()) throw new IllegalArgumentException("a tool needs a name");
    }

    /** A copy of the schema. */
    @Override
    public JsonNode schema() { return schema.deepCopy(); }
}
