package dev.hmpagent.llm.wire;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.Message;
import dev.hmpagent.text.Json;

import java.util.List;
import java.util.Objects;

/**
 * The JSON every provider's wire reads and writes the same way: a request body begun with its model, a reply that
 * must be a JSON object (anything else is a bad_response), an error body read leniently, and the chat-completions
 * messages and role names that OpenAI-compatible servers and Ollama share. Each wire keeps only its own format.
 */
public final class WireJson {
    private final ObjectMapper json = Json.mapper();

    /** The mapper, for what only one wire writes. */
    public ObjectMapper mapper() { return json; }

    /** {@code {"model": model}}, the start of every request body; neither may be null. */
    public ObjectNode body(String model, LlmRequest request) {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(request, "request");
        return json.createObjectNode().put("model", model);
    }

    /** {@code "messages": [{"role", "content"}]} in the chat-completions shape, which Ollama's {@code /api/chat} takes too. */
    public static void putChatMessages(ObjectNode body, List<Message> messages) {
        ArrayNode array = body.putArray("messages");
        for (Message m : messages) array.addObject().put("role", chatRole(m.role())).put("content", m.content());
    }

    /** The chat-completions name of a role (Ollama's too). */
    public static String chatRole(Message.Role role) {
        return switch (role) {
            case SYSTEM -> "system";
            case USER -> "user";
            case ASSISTANT -> "assistant";
        };
    }

    /** A reply (or one event's data) as a JSON object. */
    public JsonNode object(String text) throws ReplyException {
        try {
            JsonNode root = json.readTree(text);
            if (root == null || !root.isObject()) throw ReplyException.malformed("reply is not a JSON object", null);
            return root;
        } catch (JsonProcessingException e) {
            throw ReplyException.malformed("reply is not valid JSON", e);
        }
    }

    /** An error body's JSON, or null when it is none (a proxy's page, an empty body). */
    public JsonNode lenient(String body) {
        try {
            return json.readTree(body);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /** A request body as text. */
    public String write(ObjectNode body) {
        try {
            return json.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write request JSON", e);
        }
    }

    /** A text node's text, empty for any other node (absent, null, a number). */
    public static String text(JsonNode node) {
        return node.isTextual() ? node.asText() : "";
    }
}
