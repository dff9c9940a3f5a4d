package dev.hmpagent.llm.anthropic;

import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.wire.ReplyException;
import dev.hmpagent.llm.wire.ProviderErrors;
import dev.hmpagent.llm.wire.WireErrors;
import okhttp3.Headers;

import java.time.Clock;
import java.time.Duration;
import java.util.Locale;

/**
 * Maps Anthropic's errors (its documented statuses and {@code error.type}s, as a status or as an {@code error} event
 * in a stream) to the LLM exception tree; what is provider-neutral is {@link WireErrors}. Retryable: 429
 * rate_limit_error, 500 api_error, 529 overloaded_error (and what {@link WireErrors#status} retries besides). Fatal:
 * 400 invalid_request_error, 401 authentication_error, 403 permission_error, 404 not_found_error, 413
 * request_too_large. An exhausted credit balance or spend limit (a 400 saying so, 402 billing_error, or a 429 with
 * {@code enforced_spend_limit_reached}) is {@link LlmException#INSUFFICIENT_QUOTA}, never retried. Every message is
 * one line, names the endpoint, says what to do, and never contains the API key.
 */
final class AnthropicErrors extends ProviderErrors {
    AnthropicErrors(String endpoint, String host, String apiKey, String model, Duration readTimeout, Clock clock) {
        super(endpoint, host, apiKey, model, readTimeout, clock, "check the network connection and llm.base_url");
    }

    /**
     * A non-2xx status.
     *
     * @param error the body's error object, null when the body was not Anthropic's error shape
     * @param body the body as read (up to a limit), said when it held no error object
     */
    LlmException http(int code, Headers headers, ApiError error, String body) {
        String message = error != null ? error.message() : body;
        String said = wire.detail(message);
        if (quotaExhausted(code, error)) return quota("HTTP " + code + said);
        return wire.status(code, headers, message, refusal(code, "HTTP " + code + said));
    }

    /**
     * The server's {@code error} event in a stream (or an error object in a 2xx body). Overload, api and rate-limit
     * errors, and types not known here, are retryable and carry the text so far; the others are as fatal as their
     * status would be.
     */
    LlmException reported(ApiError error, String partialText) {
        String said = wire.detail(error.type() + (error.message().isEmpty() ? "" : ": " + error.message()));
        if (quotaExhausted(0, error)) return quota("mid-reply" + said);
        int code = status(error.type());
        if (code == 0 || code == 429 || code >= 500) {
            return wire.io(new ReplyException(ReplyException.STREAM_ERROR, error.type()
                    + (error.message().isEmpty() ? "" : ": " + error.message()) + "; will retry", null), partialText);
        }
        return wire.fatal("http_" + code, refusal(code, "mid-reply" + said));
    }

    /** The status Anthropic documents for an error type; 0 for a type it does not. */
    static int status(String type) {
        return switch (type) {
            case "invalid_request_error" -> 400;
            case "authentication_error" -> 401;
            case "billing_error" -> 402;
            case "permission_error" -> 403;
            case "not_found_error" -> 404;
            case "request_too_large" -> 413;
            case "rate_limit_error" -> 429;
            case "api_error" -> 500;
            case "timeout_error" -> 504;
            case "overloaded_error" -> 529;
            default -> 0;
        };
    }

    private static boolean quotaExhausted(int code, ApiError error) {
        if (code == 402) return true;
        if (error == null) return false;
        if (error.type().equals("billing_error") || error.code().equals("enforced_spend_limit_reached")) return true;
        String message = error.message().toLowerCase(Locale.ROOT);
        boolean badRequest = code == 400 || error.type().equals("invalid_request_error");
        return badRequest && (message.contains("credit balance") || message.contains("spend limit"));
    }

    private LlmException quota(String what) {
        return wire.fatal(LlmException.INSUFFICIENT_QUOTA, "LLM endpoint " + endpoint
                + ": the account's credit or spend limit is exhausted (" + what + "): not retried; add credit or raise"
                + " the limit in the Anthropic Console, or point llm.base_url and llm.model at another provider");
    }

    /**
     * The message of a status that is fatal by the rule.
     *
     * @param what how the server said it, and its words: "HTTP 400: ..." or "mid-reply: ..."
     */
    private String refusal(int code, String what) {
        String status = "(" + what + ")";
        return switch (code) {
            case 400 -> "LLM endpoint " + endpoint + " refused the request as invalid " + status
                    + ": check llm.model, llm.max_tokens and the prompt size (context.prompt_budget_tokens)";
            case 401 -> "LLM endpoint " + endpoint + " "
                    + (apiKey.isEmpty() ? "rejected the request without an API key" : "rejected the API key") + " "
                    + status + ": set ANTHROPIC_API_KEY or llm.api_key";
            case 403 -> "LLM endpoint " + endpoint + ": the API key may not use this model or resource " + status
                    + ": check the key's workspace and model access in the Anthropic Console, or set another key"
                    + " (ANTHROPIC_API_KEY or llm.api_key)";
            case 404 -> "LLM endpoint " + endpoint + ": model \"" + model + "\" not found " + status
                    + ": check llm.model (an Anthropic model id) and llm.base_url";
            case 413 -> "LLM endpoint " + endpoint + " refused the request as too large " + status
                    + ": lower context.prompt_budget_tokens";
            default -> code >= 400
                    ? "LLM endpoint " + endpoint + " refused the request " + status
                    : "LLM endpoint " + endpoint + " answered unexpectedly " + status + ": check llm.base_url";
        };
    }
}
