package dev.hmpagent.llm.wire;

import java.time.Clock;
import java.time.Duration;

/**
 * A provider's error mapping (its statuses, its refusals, its advice), built around the provider-neutral half,
 * {@link WireErrors}, which {@link HttpLlm}'s calls use for transport failures and the deadline.
 */
public interface ProviderErrors {
    /** The provider-neutral half: transport failures, unusable replies, the deadline, the key scrubbed. */
    WireErrors wire();

    /** How a provider makes its errors for one client: where it calls, with which key and model, its clock. */
    @FunctionalInterface
    interface Maker<E extends ProviderErrors> {
        E make(String endpoint, String host, String apiKey, String model, Duration readTimeout, Clock clock);
    }
}
