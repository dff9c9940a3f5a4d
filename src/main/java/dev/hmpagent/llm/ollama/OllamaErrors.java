package dev.hmpagent.llm.ollama;

import dev.hmpagent.llm.FatalLlmException;
import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.RetryableLlmException;
import dev.hmpagent.llm.wire.ReplyException;
import dev.hmpagent.llm.wire.RetryAfter;
import okhttp3.Headers;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.math.BigDecimal;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * Maps transport failures and Ollama's HTTP statuses ({@code {"error": "..."}} bodies) to the LLM exception tree.
 * Every message is one line, names the endpoint, says what to do, and never contains the API key.
 */
final class OllamaErrors {
    static final int EXCERPT_MAX = 200;

    private final String endpoint;
    private final String host;
    private final String apiKey;
    private final String model;
    private final Duration readTimeout;
    private final Clock clock;

    OllamaErrors(String endpoint, String host, String apiKey, String model, Duration readTimeout, Clock clock) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.host = Objects.requireNonNull(host, "host");
        this.apiKey = Objects.requireNonNull(apiKey, "apiKey");
        this.model = Objects.requireNonNull(model, "model");
        this.readTimeout = Objects.requireNonNull(readTimeout, "readTimeout");
        this.clock = Objects.requireNonNull(clock, "clock");
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
            Duration retryAfter = RetryAfter.delay(headers.get("retry-after-ms"), headers.get("Retry-After"),
                    clock.instant());
            String when = retryAfter == null ? "" : " (Retry-After " + seconds(retryAfter) + "s)";
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
        return retryable("deadline", "LLM endpoint " + endpoint + " did not finish its reply within "
                + seconds(deadline) + " s (llm.call_deadline_s): " + partialText.codePointCount(0, partialText.length())
                + " characters arrived; will retry", null, partialText, cause);
    }

    // shared with OpenAiErrors; to be unified in llm/wire (the transport part; the advice is Ollama's)
    /**
     * A transport failure or unusable reply that was not a user cancel.
     *
     * @param partialText the reply text that had arrived before it, carried by the exception
     */
    LlmException io(IOException e, String partialText) {
        if (e instanceof ReplyException reply) return reply(reply, partialText);
        if (e instanceof UnknownHostException) {
            return retryable("dns", "LLM endpoint " + endpoint + ": host \"" + host
                    + "\" not found (DNS lookup failed): check OLLAMA_HOST or llm.base_url", null, partialText, e);
        }
        if (e instanceof ConnectException || e instanceof NoRouteToHostException || refused(e)) {
            String why = e instanceof NoRouteToHostException ? "no route to host" : "connection refused";
            return retryable("connect", "LLM endpoint " + endpoint + " is not reachable (" + why
                    + "): start it with \"ollama serve\" or set OLLAMA_HOST / llm.base_url", null, partialText, e);
        }
        if (e instanceof SocketTimeoutException || e instanceof InterruptedIOException) {
            String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
            if (message.contains("connect")) {
                return retryable("timeout", "LLM endpoint " + endpoint + " did not accept the connection in time:"
                        + " check that \"ollama serve\" runs and OLLAMA_HOST / llm.base_url", null, partialText, e);
            }
            return retryable("timeout", "LLM endpoint " + endpoint + " did not answer within "
                    + readTimeout.toSeconds() + "s: the model may be slow or still loading; retry or raise"
                    + " llm.read_timeout_s", null, partialText, e);
        }
        return retryable("io", "LLM endpoint " + endpoint + ": network error (" + e.getClass().getSimpleName()
                + (e.getMessage() == null ? "" : ": " + excerpt(e.getMessage())) + ")", null, partialText, e);
    }

    private RetryableLlmException reply(ReplyException e, String partialText) {
        String what = switch (e.kind()) {
            case ReplyException.STREAM_ERROR -> "failed mid-reply: " + excerpt(e.getMessage());
            case ReplyException.TRUNCATED -> "ended the reply before it was complete (no \"done\": true) after "
                    + partialText.codePointCount(0, partialText.length()) + " characters: will retry";
            default -> "sent a malformed reply: " + excerpt(e.getMessage());
        };
        return retryable(e.kind(), "LLM endpoint " + endpoint + " " + what, null, partialText, e);
    }

    // shared with OpenAiErrors; to be unified in llm/wire
    /** One line, at most {@value #EXCERPT_MAX} characters, without the API key; empty for null. */
    String excerpt(String text) {
        if (text == null) return "";
        String line = redact(text).replaceAll("\\s+", " ").strip();
        if (line.length() <= EXCERPT_MAX) return line;
        return line.substring(0, EXCERPT_MAX - 1) + "…";
    }

    /** "300", "0.4": whole seconds without decimals, otherwise to the millisecond. */
    private static String seconds(Duration d) {
        return BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString();
    }

    private static boolean refused(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String message = t.getMessage();
            if (message != null && message.toLowerCase(Locale.ROOT).contains("connection refused")) return true;
        }
        return false;
    }

    private FatalLlmException fatal(String kind, String message) {
        return new FatalLlmException(kind, oneLine(message), null);
    }

    private RetryableLlmException retryable(String kind, String message, Duration retryAfter, String partialText,
                                            Throwable cause) {
        return new RetryableLlmException(kind, oneLine(message), retryAfter, partialText, cause);
    }

    // shared with OpenAiErrors; to be unified in llm/wire
    private String oneLine(String message) {
        return redact(message).replaceAll("[\\r\\n]+", " ");
    }

    private String redact(String text) {
        return apiKey.isEmpty() ? text : text.replace(apiKey, "***");
    }
}
