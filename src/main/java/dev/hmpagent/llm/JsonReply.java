package dev.hmpagent.llm;

import dev.hmpagent.text.Json;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A reply to a request for JSON ({@code commands = "json"}) read as a reply with native tool calls: its
 * {@code "thought"} the text, each item of {@code "commands"} a call named by its {@code "type"} with its
 * {@code "args"}. So the cycle reads it as it reads tool calls, into the same commands a block gives, kept as the
 * thought plus a rendered {@code # Commands:} block. An item that does not fit stays a call the cycle says is wrong
 * (no type, arguments that are no object). A reply that is no JSON object (the server ignored the schema) is left as
 * it came and read as a block; one cut before its JSON closed keeps the thought it had.
 */
final class JsonReply {
    private static final ObjectMapper JSON = Json.mapper();

    private JsonReply() { }

    /** {@code c} as thought and calls; {@code streamed} decoded its stream (when it did not stream, its text is read). */
    static Completion read(Completion c, ThoughtStream streamed) {
        if (!c.toolCalls().isEmpty()) return c;
        String raw = c.text();
        ThoughtStream whole = streamed.json() ? streamed : new ThoughtStream(StreamListener.NONE);
        if (whole != streamed) whole.onDelta(raw);
        if (!whole.json()) return c;
        JsonNode root = tree(raw);
        if (root == null || !root.isObject()) {
            return c.with(whole.thought().isEmpty() ? raw : whole.thought(), c.finishReason(), c.interrupted());
        }
        List<ToolCall> calls = new ArrayList<>();
        JsonNode commands = root.path("commands");
        if (commands.isObject()) calls.add(call(commands));
        else commands.forEach(item -> calls.add(call(item)));
        return new Completion(root.path("thought").asText(""), c.usage(), c.model(), c.finishReason(), c.interrupted(),
                calls, c.toolsOffered());
    }

    /**
     * One item as a call: its type the name ("" when it has none, which the cycle says), its args without the
     * optional arguments the schema made the model write as {@code null}.
     */
    private static ToolCall call(JsonNode item) {
        String type = item.path("type").isTextual() ? item.path("type").asText().strip() : "";
        JsonNode args = item.path("args");
        if (args.isMissingNode() || args.isNull()) return new ToolCall("", type, "{}");
        if (args.isObject()) {
            ObjectNode given = ((ObjectNode) args).deepCopy();
            List<String> nulls = new ArrayList<>();
            given.properties().forEach(p -> {
                if (p.getValue().isNull()) nulls.add(p.getKey());
            });
            given.remove(nulls);
            return new ToolCall("", type, given.toString());
        }
        return new ToolCall("", type, args.toString());
    }

    private static JsonNode tree(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
