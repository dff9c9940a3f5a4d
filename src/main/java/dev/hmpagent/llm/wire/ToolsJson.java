package dev.hmpagent.llm.wire;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.llm.ToolSpec;
import java.util.List;

/** The {@code tools} array of the OpenAI chat-completions shape, which Ollama's {@code /api/chat} takes too. */
public final class ToolsJson {
    private ToolsJson() { }

    /** Puts {@code "tools": [{"type": "function", "function": {name, description, parameters}}]} when any. */
    public static void putFunctions(ObjectNode body, List<ToolSpec> tools) {
        if (tools.isEmpty()) return;
        ArrayNode array = body.putArray("tools");
        for (ToolSpec t : tools) {
            ObjectNode function = array.addObject().put("type", "function").putObject("function");
            function.put("name", t.name()).put("description", t.description()).set("parameters", t.schema());
        }
    }
}
