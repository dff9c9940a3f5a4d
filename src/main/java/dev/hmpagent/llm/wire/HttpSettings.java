package dev.hmpagent.llm.wire;

import java.time.Duration;
import java.util.Objects;

/**
 * What every provider's settings say of the HTTP calls: where ({@code baseUrl}), with which key (empty for none) and
 * model, whether to stream, and the timeouts, {@code callDeadline} bounding a whole call, reading a trickling stream
 * included. The providers' settings records implement it; {@link HttpLlm} reads it.
 */
public interface HttpSettings {
    /** The call deadline when none is configured, for every provider. */
    Duration DEFAULT_CALL_DEADLINE = Duration.ofSeconds(300);

    String baseUrl();

    String apiKey();

    String model();

    boolean stream();

    Duration connectTimeout();

    Duration readTimeout();

    Duration callDeadline();

    /**
     * The checks every provider's settings make of the model and the timeouts: none missing, the model not blank, no
     * timeout negative, and a call deadline above zero.
     */
    static void check(String model, Duration connectTimeout, Duration readTimeout, Duration callDeadline) {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(readTimeout, "readTimeout");
        Objects.requireNonNull(callDeadline, "callDeadline");
        if (model.isBlank()) throw new IllegalArgumentException("model must not be blank");
        if (connectTimeout.isNegative() || readTimeout.isNegative()) {
            throw new IllegalArgumentException("timeouts must not be negative");
        }
        if (callDeadline.isNegative() || callDeadline.isZero()) {
            throw new IllegalArgumentException("callDeadline must be > 0");
        }
    }

    /** The key as every provider sends it: without surrounding blanks (a pasted newline), empty for none. */
    static String key(String apiKey) {
        return apiKey == null ? "" : apiKey.strip();
    }

    /**
     * "Name[baseUrl=…, apiKey=***, model=…, stream=…, connectTimeout=…, readTimeout=…, callDeadline=…]": never the
     * key.
     */
    static String describe(String name, HttpSettings s) {
        return name + "[baseUrl=" + s.baseUrl() + ", apiKey=" + (s.apiKey().isEmpty() ? "" : "***")
                + ", model=" + s.model() + ", stream=" + s.stream() + ", connectTimeout=" + s.connectTimeout()
                + ", readTimeout=" + s.readTimeout() + ", callDeadline=" + s.callDeadline() + "]";
    }
}
