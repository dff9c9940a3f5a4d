package dev.hmpagent.llm;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * A client that notes every call it passes on as a {@link Call} (when, which model answered, where it went, its
 * tokens with the cached ones apart, how long it took, how it ended), turned into the caller's record ({@code T}, e.g.
 * a row to write) for whoever writes the call's transaction to {@link #take()}. A call that throws is noted as an
 * error and the exception goes on. A {@link #probe()} is not a call of the agent's and is not noted.
 */
public final class MeteredLlm<T> implements LlmClient {
    /** How a noted call ended. */
    public enum Ending { OK, INTERRUPTED, ERROR }

    /**
     * One call as the meter saw it.
     *
     * @param model     the model that answered, else the one asked
     * @param usage     its tokens (none for a call that failed)
     * @param errorKind a failed call's kind ({@code "timeout"}, {@code "http_429"}, …), "" for the others
     */
    public record Call(Instant at, String model, String endpoint, Usage usage, long durationMs, Ending ending,
                       String errorKind) { }

    private static final Usage NONE = new Usage(0, 0, false, 0);

    private final LlmClient client;
    private final Clock clock;
    private final Function<Call, T> noted;
    private final List<T> calls = new ArrayList<>();   // guarded by this

    /** @param noted what a call becomes for {@link #take()} */
    public MeteredLlm(LlmClient client, Clock clock, Function<Call, T> noted) {
        this.client = Objects.requireNonNull(client, "client");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.noted = Objects.requireNonNull(noted, "noted");
    }

    @Override
    public Completion complete(LlmRequest request, StreamListener listener, CallCancel cancel) {
        Instant at = clock.instant();
        String asked = client.model();
        String endpoint = client.endpoint();
        Completion c;
        try {
            c = client.complete(request, listener, cancel);
        } catch (LlmException e) {
            String kind = e.kind() == null || e.kind().isBlank() ? "unknown" : e.kind();
            note(new Call(at, asked, endpoint, NONE, millisSince(at), Ending.ERROR, kind));
            throw e;
        }
        note(new Call(at, c.model().isBlank() ? asked : c.model(), endpoint, c.usage(), millisSince(at),
                c.interrupted() ? Ending.INTERRUPTED : Ending.OK, ""));
        return c;
    }

    /** The calls noted since the last take, oldest first; they are forgotten here. */
    public synchronized List<T> take() {
        List<T> out = List.copyOf(calls);
        calls.clear();
        return out;
    }

    private synchronized void note(Call call) {
        calls.add(noted.apply(call));
    }

    private long millisSince(Instant at) {
        return Math.max(0, Duration.between(at, clock.instant()).toMillis());
    }

    @Override
    public String endpoint() {
        return client.endpoint();
    }

    @Override
    public String model() {
        return client.model();
    }

    @Override
    public void probe(CallCancel cancel) {
        client.probe(cancel);
    }
}
