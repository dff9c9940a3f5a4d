package dev.hmpagent.llm.openai;

import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.RetryableLlmException;
import dev.hmpagent.llm.wire.RetryAfter;
import dev.hmpagent.llm.wire.ProviderErrors;
import dev.hmpagent.llm.wire.WireErrors;
import okhttp3.Headers;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;

/**
 * Maps transport failures and HTTP statuses to the LLM exception tree, for OpenAI-compatible servers: what is
 * provider-neutral is {@link WireErrors}; here are the quota refusal and the advice for a key, a model and a base URL
 * (local servers such as Ollama included). Every message is one line, names the endpoint, says what to do, and
 * never contains the API key.
 */
final class OpenAiErrors extends ProviderErrors {
    static final int EXCERPT_MAX = WireErrors.EXCERPT_MAX;

    OpenAiErrors(String endpoint, String host, String apiKey, String model, Duration readTimeout, Clock clock) {
        super(endpoint, host, apiKey, model, readTimeout, clock,
                "start the server (e.g. \"ollama serve\") or set llm.base_url");
    }

    /** A non-2xx status with at most a Retry-After header; see {@link #http(int, Headers, String, boolean)}. */
    LlmException http(int code, String retryAfterHeader, String serverMessage) {
        Headers headers = retryAfterHeader == null ? Headers.of() : Headers.of("Retry-After", retryAfterHeader);
        return http(code, headers, serverMessage, false);
    }

    /**
     * A non-2xx status: {@link WireErrors#status} (408, 409, 429 and 5xx retryable, {@code x-should-retry} honoured),
     * except that a 429 for an exhausted quota is never retried.
     *
     * @param headers the response's headers: {@code retry-after-ms}, {@code Retry-After}, {@code x-should-retry}
     * @param serverMessage the server's error text (may be null or long)
     * @param quotaExhausted whether the error body said {@code insufficient_quota}
     */
    LlmException http(int code, Headers headers, String serverMessage, boolean quotaExhausted) {
        String said = wire.detail(serverMessage);
        if (code == 429 && quotaExhausted) {
            return wire.fatal(LlmException.INSUFFICIENT_QUOTA, "LLM endpoint " + endpoint
                    + ": the account's quota or credit is exhausted (HTTP 429" + said + "): not retried; check the"
                    + " plan and billing with the provider, or point llm.base_url and llm.model at another provider");
        }
        return wire.status(code, headers, serverMessage, refusal(code, said));
    }

    /** The message of a status that is fatal by the rule. */
    private String refusal(int code, String said) {
        if (code == 401 || code == 403) {
            String what = apiKey.isEmpty() ? "rejected the request without an API key" : "rejected the API key";
            return "LLM endpoint " + endpoint + " " + what + " (HTTP " + code + said
                    + "): set llm.api_key or OPENAI_API_KEY";
        }
        if (code == 404) {
            return "LLM endpoint " + endpoint + ": model or path not found (HTTP 404" + said
                    + "): check llm.model \"" + model + "\" (for Ollama: \"ollama pull " + model
                    + "\") and llm.base_url (it usually ends in /v1)";
        }
        if (code >= 400) return "LLM endpoint " + endpoint + " refused the request (HTTP " + code + said + ")";
        return "LLM endpoint " + endpoint + " answered with unexpected HTTP " + code + said + ": check llm.base_url";
    }

    /** The provider-neutral half: transport failures, unusable replies, the deadline, the key scrubbed. */

    /** See {@link WireErrors#contentType}. */
    RetryableLlmException contentType(int code, String contentType) {
        return wire.contentType(code, contentType);
    }

    /** See {@link WireErrors#deadline}. */
    RetryableLlmException deadline(Duration deadline, String partialText, Throwable cause) {
        return wire.deadline(deadline, partialText, cause);
    }

    /** A transport failure that was not a user cancel, before any reply text arrived. */
    LlmException io(IOException e) {
        return io(e, "");
    }

    /** See {@link WireErrors#io}. */
    LlmException io(IOException e, String partialText) {
        return wire.io(e, partialText);
    }

    /** See {@link WireErrors#retryDelay}. */
    Duration retryDelay(Headers headers) {
        return wire.retryDelay(headers);
    }

    /** See {@link RetryAfter#millis}. */
    static Duration retryAfterMs(String header) {
        return RetryAfter.millis(header);
    }

    /** See {@link WireErrors#retryAfter}. */
    Duration retryAfter(String header) {
        return wire.retryAfter(header);
    }

    /** See {@link WireErrors#excerpt}. */
    String excerpt(String text) {
        return wire.excerpt(text);
    }
}
