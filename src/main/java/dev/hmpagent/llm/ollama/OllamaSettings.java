package dev.hmpagent.llm.ollama;

import dev.hmpagent.llm.wire.HttpSettings;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where and how to reach an Ollama server's native {@code /api/chat}.
 *
 * <p>{@code baseUrl} is the server's root ({@code http://localhost:11434}); a base ending in {@code /v1} (the
 * OpenAI-compatible path, often pasted from elsewhere) or {@code /api} is reduced to the root, trailing slashes too.
 *
 * <p>{@code options} are model options sent in the request's {@code options} object ({@code num_ctx}, {@code top_k},
 * {@code seed}, {@code mirostat}, {@code stop}…), which Ollama's {@code /v1} endpoint does not pass on. Values are
 * numbers, booleans, strings or lists of those. The request's own settings win over same-named entries here:
 * {@code temperature} and {@code num_predict} (from max tokens) always, because the cycle steers them from tick to
 * tick; {@code presence_penalty} and {@code frequency_penalty} when the request sets them (not 0), so a penalty given
 * here applies while the request leaves it at 0.
 *
 * <p>{@code keepAlive} is the top-level {@code keep_alive} (how long the model stays loaded): a Go duration
 * ({@code "10m"}, {@code "1h30m"}, {@code "-1m"}) or a whole number of seconds ({@code "3600"}, {@code "-1"}: sent
 * as a number); empty means not sent (the server's default, 5 minutes).
 *
 * <p>{@code apiKey} is sent as {@code Authorization: Bearer} only when not empty (ollama.com, or a server behind an
 * authenticating proxy); {@link #toString()} never shows it. {@code callDeadline} bounds a whole call, reading a
 * trickling stream included.
 */
public record OllamaSettings(String baseUrl, String model, boolean stream, Duration connectTimeout,
                             Duration readTimeout, Duration callDeadline, Map<String, Object> options,
                             String keepAlive, String apiKey) implements HttpSettings {
    /** Ollama's own default address. */
    public static final String DEFAULT_BASE_URL = "http://localhost:11434";
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(120);

    private static final Pattern API_SUFFIX = Pattern.compile("(?i)/(v1|api)$");
    private static final Pattern KEEP_ALIVE = Pattern.compile(
            "-?[0-9]{1,18}|-?([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+");

    public OllamaSettings {
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(model, "model");
        baseUrl = root(baseUrl);
        if (baseUrl.isEmpty()) throw new IllegalArgumentException("baseUrl must not be blank");
        HttpSettings.check(model, connectTimeout, readTimeout, callDeadline);
        options = checkedCopy(Objects.requireNonNull(options, "options"));
        keepAlive = keepAlive == null ? "" : keepAlive.strip();
        if (!keepAlive.isEmpty() && !KEEP_ALIVE.matcher(keepAlive).matches()) {
            throw new IllegalArgumentException("keepAlive \"" + keepAlive + "\" is neither a duration like 10m, 1h30m,"
                    + " -1m nor a whole number of seconds");
        }
        apiKey = HttpSettings.key(apiKey);
    }

    /** Streaming settings with the default timeouts, no extra options, the server's keep-alive and no key. */
    public OllamaSettings(String baseUrl, String model) {
        this(baseUrl, model, true, DEFAULT_CONNECT_TIMEOUT, DEFAULT_READ_TIMEOUT, DEFAULT_CALL_DEADLINE, Map.of(), "",
                "");
    }

    /** The server's root: without trailing slashes and without one trailing {@code /v1} or {@code /api}. */
    static String root(String baseUrl) {
        String root = stripTrailingSlashes(baseUrl.strip());
        return stripTrailingSlashes(API_SUFFIX.matcher(root).replaceFirst(""));
    }

    private static String stripTrailingSlashes(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == '/') end--;
        return s.substring(0, end);
    }

    /** An unmodifiable copy in the given order; each value a number, boolean, string or list of those. */
    private static Map<String, Object> checkedCopy(Map<String, Object> options) {
        Map<String, Object> copy = new LinkedHashMap<>();
        options.forEach((name, value) -> {
            if (name == null || name.isBlank()) throw new IllegalArgumentException("an option has no name");
            copy.put(name, checkedValue(name, value));
        });
        return Collections.unmodifiableMap(copy);
    }

    private static Object checkedValue(String name, Object value) {
        if (value instanceof Collection<?> list) {
            for (Object element : list) {
                if (!scalar(element)) throw badOption(name);
            }
            return List.copyOf(list);
        }
        if (!scalar(value)) throw badOption(name);
        return value;
    }

    private static boolean scalar(Object value) {
        return value instanceof Number || value instanceof Boolean || value instanceof String;
    }

    private static IllegalArgumentException badOption(String name) {
        return new IllegalArgumentException("option " + name + " must be a number, a boolean, a string or a list of"
                + " those");
    }

    @Override
    public String toString() {
        return "OllamaSettings[baseUrl=" + baseUrl + ", model=" + model + ", stream=" + stream + ", connectTimeout="
                + connectTimeout + ", readTimeout=" + readTimeout + ", callDeadline=" + callDeadline + ", options="
                + options + ", keepAlive=" + keepAlive + ", apiKey=" + (apiKey.isEmpty() ? "" : "***") + "]";
    }
}
