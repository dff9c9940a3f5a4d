package dev.hmpagent.llm.ollama;

import dev.hmpagent.llm.FatalLlmException;
import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.RetryableLlmException;
import dev.hmpagent.llm.wire.ProviderErrors;
import dev.hmpagent.llm.wire.WireErrors;
import okhttp3.Headers;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;

/**
 * Maps transport failures and Ollama's HTTP statuses ({@code {"error": "..."}} bodies) to the LLM exception tree.
 * Every message is one line, names the endpoint, says what to do, and never contains the API key.
 */
final class OllamaErrors extends ProviderErrors {
    static final int EXCERPT_MAX = 200;

    OllamaErrors(String endpoint, String host, String apiKey, String model, Duration readTimeout, Clock clock) {
        super(endpoint, host, apiKey, model, readTimeout, clock,
                "start it with \"ollama serve\" or set OLLAMA_HOST / llm.base_url");
    }

    /**
     * A non-2xx status. 404 is a model not pulled (or, without "model" in the message, a wrong base URL), 400 a
     * request the server cannot use, 401/403 the key, 402 exhausted credit: all fatal. 408, 429, 503 (queue full,
     * overloaded), 500, 502 and other 5xx are retryable, with the server's Retry-After when it sent one.
     *
     * @param headers the response's headers ({@code Retry-After}, {@code retry-after-ms})
     * @param serverMessage the server's error text (may be null or long)
     * @param path the path asked, e.g. {@code /api/chat}
     */
    LlmException http(int code, Headers headers, String serverMessage, String path) {
        String kind = "http_" + code;
        String detail = excerpt(serverMessage);
        String said = detail.isEmpty() ? "" : ": " + detail;
        String at = "LLM endpoint " + endpoint;
        if (code == 408 || code == 429 || code >= 500) {
            Duration retryAfter = wire.retryDelay(headers);
            String when = retryAfter == null ? "" : " (Retry-After " + WireErrors.seconds(retryAfter) + "s)";
            return retryable(kind, at + " " + why(code) + " (HTTP " + code + said + "): will retry later" + when,
                    retryAfter, "", null);
        }
        if (code == 404 && modelMissing(serverMessage)) {
            return fatal(kind, at + ": model \"" + model + "\" is not on this server (HTTP 404" + said
                    + "): pull it with \"ollama pull " + model + "\" or set llm.model");
        }
        if (code == 404) {
            return fatal(kind, at + " has no " + path + " (HTTP 404" + said + "): llm.base_url must be the Ollama"
                    + " server's root, e.g. http://localhost:11434");
        }
        if (code == 401 || code == 403) {
            String what = apiKey.isEmpty() ? "rejected the request without an API key" : "rejected the API key";
            return fatal(kind, at + " " + what + " (HTTP " + code + said + "): set llm.api_key or OLLAMA_API_KEY"
                    + " (ollama.com and authenticating proxies need one; a local server needs none)");
        }
        if (code == 402) {
            return fatal(LlmException.INSUFFICIENT_QUOTA, at + ": the account's usage limit or credit is exhausted"
                    + " (HTTP 402" + said + "): not retried; check the plan on ollama.com, or point llm.base_url at"
                    + " another server");
        }
        if (code == 400) {
            return fatal(kind, at + " refused the request (HTTP 400" + said + "): check llm.model and the model"
                    + " options");
        }
        if (code >= 400) return fatal(kind, at + " refused the request (HTTP " + code + said + ")");
        return fatal(kind, at + " answered with unexpected HTTP " + code + said + ": check llm.base_url");
    }

    private static String why(int code) {
        return switch (code) {
            case 408 -> "timed out the request";
            case 429 -> "is rate limiting";
            case 503 -> "is busy (request queue full or overloaded)";
            default -> "failed";
        };
    }

    /** Ollama's "model 'x' not found" (older: "model \"x\" not found, try pulling it first"). */
    private static boolean modelMissing(String serverMessage) {
        if (serverMessage == null) return false;
        String message = serverMessage.toLowerCase(Locale.ROOT);
        return message.contains("model") && message.contains("not found");
    }

    /**
     * A 2xx reply that is neither JSON nor NDJSON, typically a proxy's login page.
     *
     * @param contentType the type/subtype the server declared, null when it declared none
     */
    RetryableLlmException contentType(int code, String contentType) {
        String what = contentType == null ? "a body without a content type" : excerpt(contentType);
        return retryable("content_type", "LLM endpoint " + endpoint + " answered HTTP " + code + " with " + what
                + " instead of JSON (a proxy or login page?): check llm.base_url", null, "", null);
    }

    /**
     * The whole call took longer than the deadline (a trickling stream).
     *
     * @param partialText the reply text that had arrived by then, carried by the exception
     */
    RetryableLlmException deadline(Duration deadline, String partialText, Throwable cause) {
        return wire.deadline(deadline, partialText, cause);
    }

    /**
     * A transport failure or unusable reply that was not a user cancel.
     *
     * @param partialText the reply text that had arrived before it, carried by the exception
     */
    LlmException io(IOException e, String partialText) {
        return wire.io(e, partialText);
    }

    /** One line, at most {@value #EXCERPT_MAX} characters, without the API key; empty for null. */
    String excerpt(String text) {
        return wire.excerpt(text);
    }

    private FatalLlmException fatal(String kind, String message) {
        return wire.fatal(kind, message);
    }

    private RetryableLlmException retryable(String kind, String message, Duration retryAfter, String partialText,
                                            Throwable cause) {
        return wire.retryable(kind, message, retryAfter, partialText, cause);
    }
}
