package dev.hmpagent.llm;

import dev.hmpagent.text.Json;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.llm.wire.BaseUrl;
import dev.hmpagent.llm.wire.HttpCalls;
import java.io.IOException;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.OptionalInt;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * How many tokens of context a server gives a model, where the server says: llama.cpp's server at {@code GET /props}
 * ({@code default_generation_settings.n_ctx}, the context of one slot; the root of an OpenAI-compatible base URL, its
 * {@code /v1} left off), Ollama's {@code POST /api/show} ({@code model_info.<architecture>.context_length}: the agent
 * sends a num_ctx that holds the prompt, and Ollama cuts it to that) or a {@code num_ctx} the options give. A server
 * that does not say (OpenAI, vLLM, a server that is down) is unknown: empty, never an error, since the answer only
 * chooses how context 0 lists the commands. The key goes only to the endpoint it belongs to, as with every call.
 */
public final class ContextSize {
    /** The servers that may say, by the API they speak. */
    public enum Api { LLAMA_CPP, OLLAMA }

    private static final long MAX_BODY_BYTES = 4L * 1024 * 1024;
    private static final ObjectMapper JSON = Json.mapper();

    private ContextSize() { }

    /**
     * The context window {@code baseUrl} gives {@code model}, or empty when it does not say; {@code options} are
     * llm.options (a num_ctx there is the window, and nothing is asked).
     */
    public static OptionalInt of(Api api, String baseUrl, String model, String key, Map<String, Object> options,
                                 Duration timeout) {
        if (api == Api.OLLAMA && options.get("num_ctx") instanceof Number n) return positive(n.longValue());
        try {
            BaseUrl base = BaseUrl.parse(baseUrl);
            Request.Builder request = new Request.Builder().header("accept", "application/json");
            if (key != null && !key.isBlank()) request.header("Authorization", "Bearer " + key);
            if (api == Api.LLAMA_CPP) {
                String root = base.pathEndsWith("/v1") ? base.text().substring(0, base.text().lastIndexOf("/v1")) : base.text();
                request.url(root + "/props").get();
            } else {
                String body = JSON.createObjectNode().put("model", model).toString();
                request.url(base.resolve("/api/show")).post(RequestBody.create(body, MediaType.get("application/json")));
            }
            JsonNode answer = ask(request.build(), timeout);
            return api == Api.LLAMA_CPP ? positive(answer.path("default_generation_settings").path("n_ctx").asLong(
                    answer.path("n_ctx").asLong(0))) : ollamaLength(answer.path("model_info"));
        } catch (IOException | IllegalArgumentException e) {
            return OptionalInt.empty();
        }
    }

    /** The first {@code *.context_length} of Ollama's model_info (one per architecture). */
    static OptionalInt ollamaLength(JsonNode info) {
        for (Iterator<Map.Entry<String, JsonNode>> it = info.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (field.getKey().endsWith(".context_length")) return positive(field.getValue().asLong(0));
        }
        return OptionalInt.empty();
    }

    private static OptionalInt positive(long n) {
        return n > 0 && n <= Integer.MAX_VALUE ? OptionalInt.of((int) n) : OptionalInt.empty();
    }

    private static JsonNode ask(Request request, Duration timeout) throws IOException {
        OkHttpClient http = HttpCalls.builderFor(request.url().toString()).connectTimeout(timeout).readTimeout(timeout).callTimeout(timeout)
                .build();
        try (Response response = http.newCall(request).execute()) {
            ResponseBody body = response.body();
            if (!response.isSuccessful() || body == null || body.contentLength() > MAX_BODY_BYTES) {
                throw new IOException("no context size");
            }
            return JSON.readTree(body.byteStream());
        } finally {
            http.dispatcher().executorService().shutdown();
            http.connectionPool().evictAll();
        }
    }
}
