package dev.hmpagent.llm.openai;

import dev.hmpagent.llm.wire.ReplyException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.llm.LlmRequest;

import dev.hmpagent.llm.wire.ToolCallPart;
import dev.hmpagent.llm.ReplySchema;
import dev.hmpagent.llm.wire.ToolsJson;
import dev.hmpagent.llm.wire.WireJson;
import java.util.ArrayList;
import java.util.List;

import static dev.hmpagent.llm.wire.WireJson.text;

/** The JSON of the OpenAI chat-completions wire format: request bodies, replies and stream chunks. */
final class OpenAiWire {
    private final WireJson json = new WireJson();

    String requestBody(String model, LlmRequest request, boolean stream) {
        ObjectNode body = json.body(model, request);
        WireJson.putChatMessages(body, request.messages());
        body.put("temperature", request.temperature());
        body.put("max_tokens", request.maxTokens());
        if (request.presencePenalty() != 0) body.put("presence_penalty", request.presencePenalty());
        if (request.frequencyPenalty() != 0) body.put("frequency_penalty", request.frequencyPenalty());
        ToolsJson.putFunctions(body, request.tools());
        putReplySchema(body, request.replySchema());
        body.put("stream", stream);
        if (stream) body.putObject("stream_options").put("include_usage", true);
        return json.write(body);
    }

    /**
     * {@code "response_format": {"type": "json_schema", "json_schema": {"name": "hmp_reply", "strict", "schema"}}} when
     * the request asks for a JSON reply: the one form OpenAI, llama.cpp's server, vLLM and LM Studio all take.
     */
    private static void putReplySchema(ObjectNode body, ReplySchema reply) {
        if (!reply.any()) return;
        ObjectNode format = body.putObject("response_format").put("type", "json_schema");
        format.putObject("json_schema").put("name", "hmp_reply").put("strict", reply.strict())
                .set("schema", reply.schema());
    }

    /** A whole non-streaming reply: {@code choices[0].message.content}, finish_reason, usage, model. */
    Reply parseReply(String body) throws ReplyException {
        JsonNode root = json.object(body);
        throwIfError(root, ReplyException.BAD_RESPONSE);
        JsonNode choices = root.path("choices");
        if (!choices.isArray() || choices.isEmpty()) {
            throw ReplyException.malformed("reply has no choices", null);
        }
        JsonNode choice = choices.get(0);
        return new Reply(text(choice.path("message").path("content")), text(root.path("model")),
                text(choice.path("finish_reason")), usage(root),
                toolCalls(choice.path("message").path("tool_calls")));
    }

    /** One parsed stream chunk: its content delta (maybe empty) and what else it carried. */
    Reply parseChunk(String data) throws ReplyException {
        JsonNode root = json.object(data);
        throwIfError(root, ReplyException.STREAM_ERROR);
        JsonNode choice = root.path("choices").path(0);
        return new Reply(text(choice.path("delta").path("content")), text(root.path("model")),
                text(choice.path("finish_reason")), usage(root),
                toolCalls(choice.path("delta").path("tool_calls")));
    }

    /**
     * {@code tool_calls}: whole calls of a reply, or a stream chunk's pieces of them ({@code index}, the id and name
     * in the first piece, {@code function.arguments} in fragments). Arguments sent as an object (some servers) are
     * taken as its JSON text.
     */
    private static List<ToolCallPart> toolCalls(JsonNode calls) {
        if (!calls.isArray()) return List.of();
        List<ToolCallPart> out = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            JsonNode call = calls.get(i);
            JsonNode function = call.path("function");
            JsonNode arguments = function.path("arguments");
            out.add(new ToolCallPart(call.path("index").asInt(i), text(call.path("id")), text(function.path("name")),
                    arguments.isObject() ? arguments.toString() : text(arguments)));
        }
        return out;
    }

    /** The server's own error message ({@code error.message}, or {@code error} as a string), or null. */
    String errorMessage(String body) {
        JsonNode root = json.lenient(body);
        if (root == null) return null;
        JsonNode error = root.path("error");
        if (error.isTextual()) return error.asText();
        if (error.path("message").isTextual()) return error.path("message").asText();
        if (root.path("message").isTextual()) return root.path("message").asText();
        return null;
    }

    /** Whether an error body says the quota is exhausted: {@code error.code} or {@code error.type} "insufficient_quota". */
    boolean quotaExhausted(String body) {
        JsonNode root = json.lenient(body);
        if (root == null) return false;
        JsonNode error = root.path("error");
        return error.path("code").asText("").equals("insufficient_quota")
                || error.path("type").asText("").equals("insufficient_quota");
    }

    private static void throwIfError(JsonNode root, String kind) throws ReplyException {
        JsonNode error = root.path("error");
        if (error.isMissingNode() || error.isNull()) return;
        String message = error.isTextual() ? error.asText() : error.path("message").asText("");
        throw new ReplyException(kind, "server reported an error: " + (message.isEmpty() ? error.toString() : message), null);
    }

    /**
     * {@code usage}: prompt and completion tokens, and the prompt tokens served from the server's cache
     * ({@code prompt_tokens_details.cached_tokens}: OpenAI, vLLM, newer llama.cpp; {@code prompt_cache_hit_tokens}:
     * DeepSeek; beside the usage, {@code timings.cache_n}: llama.cpp's prompt reused from its KV cache, the only word
     * of it older llama-server builds send).
     */
    private static ServerUsage usage(JsonNode root) {
        JsonNode usage = root.path("usage");
        if (!usage.isObject()) return null;
        JsonNode cached = usage.path("prompt_tokens_details").path("cached_tokens");
        if (!cached.isNumber()) cached = usage.path("prompt_cache_hit_tokens");
        if (!cached.isNumber()) cached = root.path("timings").path("cache_n");
        return new ServerUsage(Math.max(0, usage.path("prompt_tokens").asInt(0)),
                Math.max(0, usage.path("completion_tokens").asInt(0)), Math.max(0, cached.asInt(0)));
    }
}
