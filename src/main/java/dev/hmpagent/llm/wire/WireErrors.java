package dev.hmpagent.llm.wire;

import dev.hmpagent.llm.FatalLlmException;
import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.RetryableLlmException;
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
 * What every provider's adapter says when the wire fails, before its own JSON matters: transport failures (DNS,
 * refused, timeouts), a 2xx body that is not a reply, a missed call deadline, and the status rule shared by HTTP APIs
 * (408, 409, 429 and 5xx retryable; {@code x-should-retry} overrides; {@code Retry-After} honoured). Every message is
 * one line, names the endpoint, says what to do, and never contains the API key: {@link #fatal} and
 * {@link #retryable} scrub it from whatever a provider builds too.
 */
public final class WireErrors {
    /** The longest excerpt of a server's own words kept in a message. */
    public static final int EXCERPT_MAX = 200;

    private final String endpoint;
    private final String host;
    private final String apiKey;
    private final Duration readTimeout;
    private final Clock clock;
    private final String unreachableAdvice;

    /**
     * @param endpoint where requests go, as shown to the user (no credentials)
     * @param host the host name, for a failed DNS lookup
     * @param apiKey the key to scrub from every message; empty when none
     * @param readTimeout the read timeout, named when it runs out
     * @param clock for Retry-After dates
     * @param unreachableAdvice what to do when nothing answers at the address, e.g. "start the server or set llm.base_url"
     */
    public WireErrors(String endpoint, String host, String apiKey, Duration readTimeout, Clock clock,
                      String unreachableAdvice) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.host = Objects.requireNonNull(host, "host");
        this.apiKey = Objects.requireNonNull(apiKey, "apiKey");
        this.readTimeout = Objects.requireNonNull(readTimeout, "readTimeout");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.unreachableAdvice = Objects.requireNonNull(unreachableAdvice, "unreachableAdvice");
    }

    public String endpoint() { return endpoint; }

    /**
     * A non-2xx status by the shared rule: 408, 409, 429 and 5xx are retryable (with the server's Retry-After),
     * unless it says {@code x-should-retry: false}; any status is retryable when it says {@code x-should-retry: true}
     * (as the OpenAI and Anthropic SDKs honour it). Every other status is fatal with the provider's {@code refusal}.
     * Exceptions the provider knows better (an exhausted quota) it decides before calling this.
     *
     * @param headers the response's headers: {@code retry-after-ms}, {@code Retry-After}, {@code x-should-retry}
     * @param serverMessage the server's error text (may be null or long)
     * @param refusal the whole one-line message when the status is fatal by the rule (see {@link #detail})
     */
    public LlmException status(int code, Headers headers, String serverMessage, String refusal) {
        String kind = "http_" + code;
        String said = detail(serverMessage);
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
        return fatal(kind, refusal);
    }

    /** ": " and a one-line excerpt of the server's words, to follow "HTTP 400"; empty when it said nothing. */
    public String detail(String serverMessage) {
        String excerpt = excerpt(serverMessage);
        return excerpt.isEmpty() ? "" : ": " + excerpt;
    }

    private static String why(int code) {
        if (code == 429) return "is rate limiting";
        if (code == 529) return "is overloaded";
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
    public RetryableLlmException contentType(int code, String contentType) {
        String what = contentType == null ? "a body without a content type" : excerpt(contentType);
        return retryable("content_type", "LLM endpoint " + endpoint + " answered HTTP " + code + " with " + what
                + " instead of JSON or an event stream (a proxy or login page?): check llm.base_url", null, "", null);
    }

    /**
     * The whole call took longer than the deadline (a trickling or keep-alive-only stream).
     *
     * @param partialText the reply text that had arrived by then, carried by the exception
     */
    public RetryableLlmException deadline(Duration deadline, String partialText, Throwable cause) {
        return retryable("deadline", "LLM endpoint " + endpoint + " did not finish its reply within "
                + seconds(deadline) + " s (llm.call_deadline_s): " + chars(partialText)
                + " characters arrived; will retry", null, partialText, cause);
    }

    /**
     * A transport failure or unusable reply that was not a user cancel. A {@link ReplyException} of kind
     * {@link ReplyException#TRUNCATED} names in its message what the stream lacked ("no message_stop").
     *
     * @param partialText the reply text that had arrived before it, carried by the exception
     */
    public LlmException io(IOException e, String partialText) {
        if (e instanceof ReplyException reply) return reply(reply, partialText);
        if (e instanceof UnknownHostException) {
            return retryable("dns", "LLM endpoint " + endpoint + ": host \"" + host
                    + "\" not found (DNS lookup failed): check llm.base_url", null, partialText, e);
        }
        if (e instanceof ConnectException || e instanceof NoRouteToHostException || refused(e)) {
            String why = e instanceof NoRouteToHostException ? "no route to host" : "connection refused";
            return retryable("connect", "LLM endpoint " + endpoint + " is not reachable (" + why + "): "
                    + unreachableAdvice, null, partialText, e);
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
            case ReplyException.TRUNCATED -> "closed the stream before the reply was complete (" + excerpt(e.getMessage())
                    + ") after " + chars(partialText) + " characters: will retry";
            default -> "sent a malformed reply: " + excerpt(e.getMessage());
        };
        return retryable(e.kind(), "LLM endpoint " + endpoint + " " + what, null, partialText, e);
    }

    /**
     * How long the server asks us to wait: {@code retry-after-ms} when present and valid (it is the more precise),
     * otherwise {@code Retry-After}. Null when neither is usable.
     */
    public Duration retryDelay(Headers headers) {
        return RetryAfter.delay(headers.get("retry-after-ms"), headers.get("Retry-After"), clock.instant());
    }

    /** The Retry-After header relative to the clock (never negative); null when absent or unreadable. */
    public Duration retryAfter(String header) {
        return RetryAfter.header(header, clock.instant());
    }

    /** One line, at most {@value #EXCERPT_MAX} characters, without the API key; empty for null. */
    public String excerpt(String text) {
        if (text == null) return "";
        String line = redact(text).replaceAll("\\s+", " ").strip();
        if (line.length() <= EXCERPT_MAX) return line;
        return line.substring(0, EXCERPT_MAX - 1) + "…";
    }

    /** "300", "0.4": whole seconds without decimals, otherwise to the millisecond. */
    public static String seconds(Duration d) {
        return BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString();
    }

    /** A failure that repeats until the user changes something; the message made one line, the key scrubbed. */
    public FatalLlmException fatal(String kind, String message) {
        return new FatalLlmException(kind, oneLine(message), null);
    }

    /** A failure that may pass; the message made one line, the key scrubbed. */
    public RetryableLlmException retryable(String kind, String message, Duration retryAfter, String partialText,
                                           Throwable cause) {
        return new RetryableLlmException(kind, oneLine(message), retryAfter, partialText, cause);
    }

    private static int chars(String text) {
        return text.codePointCount(0, text.length());
    }

    private static boolean refused(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String message = t.getMessage();
            if (message != null && message.toLowerCase(Locale.ROOT).contains("connection refused")) return true;
        }
        return false;
    }

    private String oneLine(String message) {
        return redact(message).replaceAll("[\\r\\n]+", " ");
    }

    private String redact(String text) {
        return apiKey.isEmpty() ? text : text.replace(apiKey, "***");
    }
}
