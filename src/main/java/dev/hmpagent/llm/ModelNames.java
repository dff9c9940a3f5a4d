package dev.hmpagent.llm;

import dev.hmpagent.text.Json;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.llm.wire.BaseUrl;
import dev.hmpagent.llm.wire.HttpCalls;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * The names of the models an endpoint offers, as its own list says: {@code GET /models} of an OpenAI-compatible
 * server (OpenAI, Ollama's /v1, LM Studio, vLLM, llama.cpp, OpenRouter), Ollama's {@code GET /api/tags}, Anthropic's
 * {@code GET /v1/models}. The key goes only to the endpoint it belongs to, as with every call; a failure is one line
 * with no key in it.
 */
public final class ModelNames {
    /** The list a server keeps, by the API it speaks. */
    public enum Api { OPENAI, OLLAMA, ANTHROPIC }

    /** Most names kept from one list (OpenRouter lists hundreds). */
    static final int MAX_NAMES = 500;
    private static final long MAX_BODY_BYTES = 4L * 1024 * 1024;
    private static final ObjectMapper JSON = Json.mapper();

    private ModelNames() { }

    /**
     * The names {@code baseUrl} lists, sorted, at most {@link #MAX_NAMES}.
     *
     * @throws IOException with a one-line message (the status, or what failed) when the list cannot be had
     */
    public static List<String> fetch(Api api, String baseUrl, String key, Duration timeout) throws IOException {
        Objects.requireNonNull(api, "api");
        BaseUrl base = BaseUrl.parse(baseUrl);
        Request.Builder request = new Request.Builder().url(base.resolve(path(api, base))).get()
                .header("accept", "application/json");
        boolean keyed = key != null && !key.isBlank();
        if (keyed && api == Api.ANTHROPIC) request.header("x-api-key", key);
        if (keyed && api != Api.ANTHROPIC) request.header("Authorization", "Bearer " + key);
        if (api == Api.ANTHROPIC) request.header("anthropic-version", "2023-06-01");
        OkHttpClient http = HttpCalls.builderFor(baseUrl).connectTimeout(timeout).readTimeout(timeout).callTimeout(timeout)
                .build();
        try (Response response = http.newCall(request.build()).execute()) {
            if (!response.isSuccessful()) {
                throw new IOException(base.endpoint() + " answered HTTP " + response.code() + " to its model list");
            }
            ResponseBody body = response.body();
            if (body == null || body.contentLength() > MAX_BODY_BYTES) throw new IOException("no model list");
            return names(api, JSON.readTree(body.byteStream()));
        } finally {
            http.dispatcher().executorService().shutdown();
            http.connectionPool().evictAll();
        }
    }

    private static String path(Api api, BaseUrl base) {
        return switch (api) {
            case OPENAI -> "/models";
            case OLLAMA -> "/api/tags";
            case ANTHROPIC -> (base.pathEndsWith("/v1") ? "" : "/v1") + "/models?limit=1000";
        };
    }

    /** The names in a list's body: {@code data[].id}, or Ollama's {@code models[].name}. */
    static List<String> names(Api api, JsonNode body) throws IOException {
        JsonNode items = body.path(api == Api.OLLAMA ? "models" : "data");
        if (!items.isArray()) throw new IOException("the model list is not in the shape its API gives");
        TreeSet<String> names = new TreeSet<>();
        for (JsonNode item : items) {
            String name = item.path(api == Api.OLLAMA ? "name" : "id").asText("");
            if (!name.isBlank() && name.length() <= 200 && name.chars().noneMatch(Character::isISOControl)) {
                names.add(name);
            }
        }
        return List.copyOf(new ArrayList<>(names).subList(0, Math.min(names.size(), MAX_NAMES)));
    }
}
