package dev.hmpagent.llm.wire;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * A provider's error mapping (its statuses, its refusals, its advice), built around the provider-neutral half,
 * {@link WireErrors}, which {@link HttpLlm}'s calls use for transport failures and the deadline. What every mapping
 * names is kept here: where the calls go, the key (to scrub it, and to tell a refused key from a missing one) and the
 * model.
 */
public abstract class ProviderErrors {
    /** The provider-neutral half: transport failures, unusable replies, the deadline, the key scrubbed. */
    protected final WireErrors wire;
    protected final String endpoint;
    protected final String apiKey;
    protected final String model;

    /** @param unreachable what to do when the server cannot be reached, as the provider's advice says it */
    protected ProviderErrors(String endpoint, String host, String apiKey, String model, Duration readTimeout,
                             Clock clock, String unreachable) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.apiKey = Objects.requireNonNull(apiKey, "apiKey");
        this.model = Objects.requireNonNull(model, "model");
        this.wire = new WireErrors(endpoint, host, apiKey, readTimeout, clock, unreachable);
    }

    /** The provider-neutral half: transport failures, unusable replies, the deadline, the key scrubbed. */
    public final WireErrors wire() {
        return wire;
    }

    /** How a provider makes its errors for one client: where it calls, with which key and model, its clock. */
    @FunctionalInterface
    public interface Maker<E extends ProviderErrors> {
        E make(String endpoint, String host, String apiKey, String model, Duration readTimeout, Clock clock);
    }
}
