package dev.hmpagent.llm.ollama;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.wire.ReplyException;

import dev.hmpagent.llm.ToolCall;
import dev.hmpagent.llm.wire.ToolsJson;
import dev.hmpagent.llm.wire.WireJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import static dev.hmpagent.llm.wire.WireJson.text;

/**
 * The JSON of Ollama's native API: {@code /api/chat} request bodies and reply objects (a stream's lines and a whole
 * reply have the same shape), {@code /api/show} bodies, and the {@code {"error": "..."}} of a failure.
 */
final class OllamaWire {
    private final WireJson json = new WireJson();

    /**
     * {@code {"model", "messages", "stream", "options", "keep_alive"?}}. The options are {@code settings.options()}
     * overlaid with the request's temperature, {@code num_predict} (max tokens) and its non-zero penalties, which win
     * (see {@link OllamaSettings}).
     */
    String chatBody(OllamaSettings settings, LlmRequest request, boolean stream) {
        return chatBody(settings, request, stream, null);
    }

    /** The same, with {@code num_ctx} set to {@code contextTokens} unless that is null ({@link ContextWindow}). */
    String chatBody(OllamaSettings settings, LlmRequest request, boolean stream, Integer contextTokens) {
        ObjectNode body = json.body(Objects.requireNonNull(settings, "settings").model(), request);
        WireJson.putChatMessages(body, request.messages());
        ToolsJson.putFunctions(body, request.tools());
        // a JSON reply: Ollama keeps the reply to a schema given as "format" (0.5 and later)
        if (request.replySchema().any()) body.set("format", request.replySchema().schema());
        body.put("stream", stream);
        ObjectNode options = body.putObject("options");
        settings.options().forEach((name, value) -> options.set(name, json.mapper().valueToTree(value)));
        if (contextTokens != null) options.put("num_ctx", contextTokens);
        options.put("temperature", request.temperature());
        options.put("num_predict", request.maxTokens());
        if (request.presencePenalty() != 0) options.put("presence_penalty", request.presencePenalty());
        if (request.frequencyPenalty() != 0) options.put("frequency_penalty", request.frequencyPenalty());
        putKeepAlive(body, settings.keepAlive());
        return json.write(body);
    }

    /** {@code {"model": ...}}, what {@code /api/show} asks. */
    String showBody(String model) {
        return json.write(json.mapper().createObjectNode().put("model", Objects.requireNonNull(model, "model")));
    }

    /**
     * One reply object. An object with an {@code error} (Ollama's way to fail after the status line went out) is
     * thrown as a {@link ReplyException#STREAM_ERROR}; anything that is not a reply object as malformed.
     */
    OllamaChunk parse(String text) throws ReplyException {
        JsonNode root = json.object(text);
        JsonNode error = root.path("error");
        if (!error.isMissingNode() && !error.isNull()) {
            String message = error.isTextual() ? error.asText() : error.toString();
            throw new ReplyException(ReplyException.STREAM_ERROR, "server reported an error: " + message, null);
        }
        JsonNode message = root.path("message");
        if (!message.isObject() && !root.has("done")) {
            throw ReplyException.malformed("reply has neither a message nor done", null);
        }
        boolean done = root.path("done").asBoolean(false);
        return new OllamaChunk(text(message.path("content")), text(root.path("model")), done,
                text(root.path("done_reason")), counts(root), toolCalls(message.path("tool_calls")));
    }

    /** {@code message.tool_calls}: whole calls, each {@code function.arguments} an object (or, from some, its text). */
    private static List<ToolCall> toolCalls(JsonNode calls) {
        if (!calls.isArray()) return List.of();
        List<ToolCall> out = new ArrayList<>();
        for (JsonNode call : calls) {
            JsonNode function = call.path("function");
            JsonNode arguments = function.path("arguments");
            if (text(function.path("name")).isEmpty()) continue;
            out.add(new ToolCall(text(call.path("id")), text(function.path("name")),
                    arguments.isTextual() ? arguments.asText() : arguments.isMissingNode() ? "" : arguments.toString()));
        }
        return out;
    }

    /** The server's own error text ({@code error} as a string), or null when the body has none. */
    String errorMessage(String body) {
        JsonNode root = json.lenient(body);
        if (root == null) return null;
        JsonNode error = root.path("error");
        return error.isTextual() ? error.asText() : null;
    }

    /** The counts of a final object, null when it carries none. */
    private static ServerCounts counts(JsonNode root) {
        ServerCounts counts = new ServerCounts(count(root.path("prompt_eval_count")), count(root.path("eval_count")),
                count(root.path("prompt_eval_cached_count")));
        return counts.any() ? counts : null;
    }

    private static int count(JsonNode node) {
        return node.isIntegralNumber() && node.asLong() >= 0 && node.asLong() <= Integer.MAX_VALUE
                ? node.asInt() : ServerCounts.NOT_SENT;
    }

    /** A whole number of seconds goes as a number (Ollama reads a string as a Go duration, which needs a unit). */
    private static void putKeepAlive(ObjectNode body, String keepAlive) {
        if (keepAlive.isEmpty()) return;
        if (keepAlive.matches("-?[0-9]{1,18}")) {
            body.put("keep_alive", Long.parseLong(keepAlive));
        } else {
            body.put("keep_alive", keepAlive);
        }
    }
}
