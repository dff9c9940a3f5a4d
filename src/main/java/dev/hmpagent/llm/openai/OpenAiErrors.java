package dev.hmpagent.llm.openai;

import dev.hmpagent.llm.wire.ReplyException;
import dev.hmpagent.llm.wire.RetryAfter;
import dev.hmpagent.llm.FatalLlmException;
import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.RetryableLlmException;
import okhttp3.Headers;

import java.io.IOException;
import java.math.BigDecimal;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * Maps transport failures and HTTP statuses to the LLM exception tree. Every message is one
 * line, names the endpoint, says what to do, and never contains the API key.
 */
final class OpenAiErrors {
    static final int EXCERPT_MAX = 200;

    private final String endpoint;
    private final String host;
    private final String apiKey;
    private final String model;
    private final Duration readTimeout;
    private final Clock clock;

    OpenAiErrors(String endpoint, String host, String apiKey, String model, Duration readTimeout, Clock clock) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.host = Objects.requireNonNull(host, "host");
        this.apiKey = Objects.requireNonNull(apiKey, "apiKey");
        this.model = Objects.requireNonNull(model, "model");
        this.readTimeout = Objects.requireNonNull(readTimeout, "readTimeout");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** A non-2xx status with at most a Retry-After header; see {@link #http(int, Headers, String, boolean)}. */
    LlmException http(int code, String retryAfterHeader, String serverMessage) {
        Headers headers = retryAfterHeader == null ? Headers.of() : Headers.of("Retry-After", retryAfterHeader);
        return http(code, headers, serverMessage, false);
    }

    /**
     * A non-2xx status. 408, 409, 429 and 5xx are retryable, other statuses fatal, unless the server says
     * otherwise with {@code x-should-retry: true|false} (as the OpenAI SDKs honour it). A 429 for an exhausted
     * quota is never retried.
     *
     * @param headers the response's headers: {@code retry-after-ms}, {@code Retry-After}, {@code x-should-retry}
     * @param serverMessage the server's error text (may be null or long)
     * @param quotaExhausted whether the error body said {@code insufficient_quota}
     */
    LlmException http(int code, Headers headers, String serverMessage, boolean quotaExhausted) {
        String kind = "http_" + code;
        String detail = excerpt(serverMessage);
        String said = detail.isEmpty() ? "" : ": " + detail;
        if (code == 429 && quotaExhausted) {
            return fatal(LlmException.INSUFFICIENT_QUOTA, "LLM endpoint " + endpoint
                    + ": the account's quota or credit is exhausted (HTTP 429" + said + "): not retried; check the"
                    + " plan and billing with the provider, or point llm.base_url and llm.model at another provider");
        }
        boolean retryableStatus = code == 408 || code == 409 || code == 429 || code >= 500;
        Boolean serverSays = code >= 400 ? shouldRetry(headers.get("x-should-retry")) : null;
        if (serverSays == Boolean.FALSE && retryableStatus) {
            return fatal(kind, "LLM endpoint " + endpoint + " " + why(code) + " (HTTP " + code + said
                    + ") and says not to retry (x-should-retry: false): not retried");
        }
        if (retryableStatus || serverSays == Boolean.TRUE) {
            Duration retryAfter = retryDelay(headers);
            String asked = retryableStatus ? "" : " and asks for a retry (x-should-retry: true)";
            String when = retryAfter == null ? "" : " (Retry-After " + seconds(retryAfter) + "s)";
            return retryable(kind, "LLM endpoint " + endpoint + " " + why(code) + " (HTTP " + code + said + ")"
                    + asked + ": will retry later" + when, retryAfter, "", null);
        }
        if (code == 401 || code == 403) {
            String what = apiKey.isEmpty() ? "rejected the request without an API key" : "rejected the API key";
            return fatal(kind, "LLM endpoint " + endpoint + " " + what + " (HTTP " + code + said
                    + "): set llm.api_key or OPENAI_API_KEY");
        }
        if (code == 404) {
            return fatal(kind, "LLM endpoint " + endpoint + ": model or path not found (HTTP 404" + said
                    + "): check llm.model \"" + model + "\" (for Ollama: \"ollama pull " + model
                    + "\") and llm.base_url (it usually ends in /v1)");
        }
        if (code >= 400) {
            return fatal(kind, "LLM endpoint " + endpoint + " refused the request (HTTP " + code + said + ")");
        }
        return fatal(kind, "LLM endpoint " + endpoint + " answered with unexpected HTTP " + code + said
                + ": check llm.base_url");
    }

    private static String why(int code) {
        if (code == 429) return "is rate limiting";
        if (code == 408) return "timed out the request";
        if (code == 409 || code >= 500) return "failed";
        return "refused the request";
    }

    /** {@code x-should-retry}: TRUE or FALSE when the server said so, null when absent or anything else. */
    private static Boolean shouldRetry(String header) {
        if (header == null) return null;
        String value = header.strip();
        if (value.equalsIgnoreCase("true")) return Boolean.TRUE;
        if (value.equalsIgnoreCase("false")) return Boolean.FALSE;
        return null;
    }

    /**
     * A 2xx reply that is neither JSON nor an event stream, typically a proxy's login page.
     *
     * @param contentType the type/subtype the server declared, null when it declared none
     */
    RetryableLlmException contentType(int code, String contentType) {
        String what = contentType == null ? "a body without a content type" : excerpt(contentType);
        return retryable("content_type", "LLM endpoint " + endpoint + " answered HTTP " + code + " with " + what
                + " instead of JSON or an event stream (a proxy or login page?): check llm.base_url", null, "", null);
    }

    /**
     * The whole call took longer than the deadline (a trickling or keep-alive-only stream).
     *
     * @param partialText the reply text that had arrived by then, carried by the exception
     */
    RetryableLlmException deadline(Duration deadline, String partialText, Throwable cause) {
        return retryable("deadline", "LLM endpoint " + endpoint + " did not finish its reply within "
                + seconds(deadline) + " s (llm.call_deadline_s): " + partialText.codePointCount(0, partialText.length())
                + " characters arrived; will retry", null, partialText, cause);
    }

    /** A transport failure that was not a user cancel, before any reply text arrived. */
    LlmException io(IOException e) {
        return io(e, "");
    }

    /**
     * A transport failure or unusable reply that was not a user cancel.
     *
     * @param partialText the reply text that had arrived before it, carried by the exception
     */
    LlmException io(IOException e, String partialText) {
        if (e instanceof ReplyException reply) return reply(reply, partialText);
        if (e instanceof UnknownHostException) {
            return retryable("dns", "LLM endpoint " + endpoint + ": host \"" + host
                    + "\" not found (DNS lookup failed): check llm.base_url", null, partialText, e);
        }
        if (e instanceof ConnectException || e instanceof NoRouteToHostException || refused(e)) {
            String why = e instanceof NoRouteToHostException ? "no route to host" : "connection refused";
            return retryable("connect", "LLM endpoint " + endpoint + " is not reachable (" + why
                    + "): start the server (e.g. \"ollama serve\") or set llm.base_url", null, partialText, e);
        }
        if (e instanceof SocketTimeoutException || e instanceof InterruptedIOException) {
            String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
            if (message.contains("connect")) {
                return retryable("timeout", "LLM endpoint " + endpoint
                        + " did not accept the connection in time: check that the server runs and llm.base_url", null, partialText, e);
            }
            return retryable("timeout", "LLM endpoint " + endpoint + " did not answer within "
                    + readTimeout.toSeconds() + "s: the model may be slow or loading; retry or raise llm.read_timeout_s",
                    null, partialText, e);
        }
        return retryable("io", "LLM endpoint " + endpoint + ": network error (" + e.getClass().getSimpleName()
                + (e.getMessage() == null ? "" : ": " + excerpt(e.getMessage())) + ")", null, partialText, e);
    }

    private RetryableLlmException reply(ReplyException e, String partialText) {
        String what = switch (e.kind()) {
            case ReplyException.STREAM_ERROR -> "failed mid-reply: " + excerpt(e.getMessage());
            case ReplyException.TRUNCATED -> "closed the stream before the reply was complete (no finish_reason, no [DONE]) after "
                    + partialText.codePointCount(0, partialText.length()) + " characters: will retry";
            default -> "sent a malformed reply: " + excerpt(e.getMessage());
        };
        return retryable(e.kind(), "LLM endpoint " + endpoint + " " + what, null, partialText, e);
    }

    /**
     * How long the server asks us to wait: {@code retry-after-ms} when present and valid (it is the more precise),
     * otherwise {@code Retry-After}. Null when neither is usable.
     */
    Duration retryDelay(Headers headers) {
        return RetryAfter.delay(headers.get("retry-after-ms"), headers.get("Retry-After"), clock.instant());
    }

    /**
     * The {@code retry-after-ms} header as a delay: a non-negative number of milliseconds, maybe with a
     * fraction ("1500", "250.5"), rounded up to the nanosecond. Null when absent or unreadable.
     */
    static Duration retryAfterMs(String header) {
        return RetryAfter.millis(header);
    }

    /**
     * The Retry-After header as a delay: delta-seconds, or an HTTP-date relative to the clock
     * (never negative). Null when absent or unreadable.
     */
    Duration retryAfter(String header) {
        return RetryAfter.header(header, clock.instant());
    }

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

    private String oneLine(String message) {
        return redact(message).replaceAll("[\\r\\n]+", " ");
    }

    private String redact(String text) {
        return apiKey.isEmpty() ? text : text.replace(apiKey, "***");
    }
}
