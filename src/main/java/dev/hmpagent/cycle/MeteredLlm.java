package dev.hmpagent.cycle;

import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.llm.Usage;
import dev.hmpagent.store.LlmCall;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A client that notes every call it passes on as an {@link LlmCall} (when, which model answered, where it went, its
 * tokens with the cached ones apart, how long it took, how it ended), for whoever writes the call's transaction to
 * {@link #take()}. A call that throws is noted as an error and the exception goes on. A {@link #probe()} is not a call
 * of the agent's and is not noted.
 */
public final class MeteredLlm implements LlmClient {
    private final LlmClient client;
    private final Clock clock;
    private final LlmCall.Purpose purpose;
    private final List<LlmCall> calls = new ArrayList<>();   // guarded by this

    public MeteredLlm(LlmClient client, Clock clock, LlmCall.Purpose purpose) {
        this.client = Objects.requireNonNull(client, "client");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.purpose = Objects.requireNonNull(purpose, "purpose");
    }

    @Override
    public Completion complete(LlmRequest request, StreamListener listener) {
        Instant at = clock.instant();
        String asked = client.model();
        String endpoint = client.endpoint();
        Completion c;
        try {
            c = client.complete(request, listener);
        } catch (LlmException e) {
            String kind = e.kind() == null || e.kind().isBlank() ? "unknown" : e.kind();
            note(new LlmCall(purpose, at, asked, endpoint, 0, 0, 0, false, millisSince(at), LlmCall.Outcome.ERROR, kind));
            throw e;
        }
        Usage u = c.usage();
        note(new LlmCall(purpose, at, c.model().isBlank() ? asked : c.model(), endpoint, u.promptTokens(),
                u.cachedTokens(), u.completionTokens(), u.estimated(), millisSince(at),
                c.interrupted() ? LlmCall.Outcome.INTERRUPTED : LlmCall.Outcome.OK, ""));
        return c;
    }

    /** The calls noted since the last take, oldest first; they are forgotten here. */
    public synchronized List<LlmCall> take() {
        List<LlmCall> out = List.copyOf(calls);
        calls.clear();
        return out;
    }

    private synchronized void note(LlmCall call) {
        calls.add(call);
    }

    private long millisSince(Instant at) {
        return Math.max(0, Duration.between(at, clock.instant()).toMillis());
    }

    @Override
    public void cancel() {
        client.cancel();
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
    public void probe() {
        client.probe();
    }
}
