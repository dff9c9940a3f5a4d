package dev.hmpagent.mcp;

import dev.hmpagent.commands.CommandOutcome;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The calls of one MCP server in flight (any call thread may add or end one): each ends once, with the result its
 * thread got or with the failure, the death or the halt that ended them all first; none ends after the agent closed.
 */
final class InFlightCalls {
    /** How long a halt waits for a stdio server to answer the ping that follows its calls' cancellations. */
    private static final long CANCEL_PING_MS = 1000;
    private final Map<Long, Consumer<CommandOutcome>> waiting = new ConcurrentHashMap<>();
    /** The request of each call sent, which a halt cancels with the protocol's cancellation. */
    private final Map<Long, McpSchema.CallToolRequest> requests = new ConcurrentHashMap<>();
    /** True once the agent closed the server: an ending is then given to nobody. */
    private final BooleanSupplier stopped;

    InFlightCalls(BooleanSupplier stopped) {
        this.stopped = Objects.requireNonNull(stopped, "stopped");
    }

    /** Call {@code id} began: {@code onDone} gets its result once. */
    void began(long id, Consumer<CommandOutcome> onDone) {
        waiting.put(id, onDone);
    }

    /** Call {@code id}'s request went to the server. */
    void sent(long id, McpSchema.CallToolRequest request) {
        requests.put(id, request);
    }

    /** Call {@code id} returned on its thread: its request, when it was sent. */
    Optional<McpSchema.CallToolRequest> returned(long id) {
        return Optional.ofNullable(requests.remove(id));
    }

    /** Ends call {@code id} with {@code outcome}, unless it ended already or the agent closed. */
    void finish(long id, CommandOutcome outcome) {
        Consumer<CommandOutcome> onDone = waiting.remove(id);
        if (onDone != null && !stopped.getAsBoolean()) onDone.accept(outcome);
    }

    /** Ends every call in flight with {@code outcome}. */
    void finishAll(CommandOutcome outcome) {
        new ArrayList<>(waiting.keySet()).forEach(id -> finish(id, outcome));
    }

    /** Ends every call whose request was sent with what {@code outcome} says of it (a reset of the connection). */
    void finishSent(Function<McpSchema.CallToolRequest, CommandOutcome> outcome) {
        new ArrayList<>(requests.entrySet()).forEach(r -> finish(r.getKey(), outcome.apply(r.getValue())));
    }

    /**
     * Sends {@code notifications/cancelled} for each request sent, through {@code transport}; then, when {@code ping}
     * (a stdio server), the server is pinged through {@code client} (at most {@link #CANCEL_PING_MS}), since its answer
     * says it has read the cancellations before its process is killed.
     */
    void cancelSent(CancellingTransport transport, McpSyncClient client, String why, boolean ping) {
        boolean sent = false;
        for (McpSchema.CallToolRequest request : new ArrayList<>(requests.values())) {
            try {
                sent |= transport.cancel(request, why).isPresent();
            } catch (RuntimeException e) {
                // the server may be gone already: the call ends below (and a stdio server's tree is killed) anyway
            }
        }
        if (!sent || !ping) return;
        try {
            CompletableFuture.runAsync(client::ping).get(CANCEL_PING_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // a server busy or broken: it is killed without the proof that it read the cancellation
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The agent closed: no call in flight is answered. */
    void clear() {
        waiting.clear();
    }
}
