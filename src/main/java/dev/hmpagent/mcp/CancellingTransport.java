package dev.hmpagent.mcp;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * The SDK's transport, which also cancels a {@code tools/call} in flight with the protocol's cancellation. The SDK
 * (2.1.0) has no cancellation of its own: {@code McpClientSession.sendRequest} keeps its request ids to itself and
 * sends nothing when the call's {@code Mono} is disposed, and the session is not reachable from the client. So this
 * transport notes the id the session gives each call (matched by the very {@link McpSchema.CallToolRequest} object
 * the client passed down), and sends the spec's {@code notifications/cancelled} for it as the SDK's own {@link
 * McpSchema.JSONRPCNotification}, through the SDK's transport, as {@code McpSession.sendNotification} would.
 *
 * <p>It also keeps {@code notifications/tools/list_changed} from the SDK, whose own handler sends one {@code
 * tools/list} per notification (1,466 in 17 s from a server in a loop): each is told to {@code listChanged}, which
 * coalesces them ({@link Coalescer}). And it tells {@code broken} what the SDK's HTTP transport reports only to its
 * exception handler: a connection reset after an answer's event stream began, which would otherwise leave the call
 * waiting its whole timeout.
 */
final class CancellingTransport implements McpClientTransport {
    /** The spec's method (basic/utilities/cancellation); the SDK names none. */
    static final String CANCELLED = "notifications/cancelled";
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(2);

    private final McpClientTransport transport;
    /** The session's request id of each call in flight, by the request object the client passed. */
    private final Map<McpSchema.CallToolRequest, Object> ids = Collections.synchronizedMap(new IdentityHashMap<>());

    private final Runnable listChanged;
    /** Told each failure the SDK's transport reports only to its exception handler (a stream reset mid-answer). */
    private final Consumer<Throwable> broken;

    CancellingTransport(McpClientTransport transport, Runnable listChanged, Consumer<Throwable> broken) {
        this.transport = Objects.requireNonNull(transport, "transport");
        this.listChanged = Objects.requireNonNull(listChanged, "listChanged");
        this.broken = Objects.requireNonNull(broken, "broken");
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        if (message instanceof McpSchema.JSONRPCRequest r && r.params() instanceof McpSchema.CallToolRequest call
                && McpSchema.METHOD_TOOLS_CALL.equals(r.method())) {
            ids.put(call, r.id());
        }
        return transport.sendMessage(message);
    }

    /** The call is over (answered, failed or cancelled): its id is forgotten. */
    void forget(McpSchema.CallToolRequest call) {
        ids.remove(call);
    }

    /**
     * Sends {@code notifications/cancelled} for {@code call} with {@code reason}, once, if its request was sent; the
     * id, when one was sent. Waits at most a couple of seconds for the transport to take it.
     */
    Optional<Object> cancel(McpSchema.CallToolRequest call, String reason) {
        Object id = ids.remove(call);
        if (id == null) return Optional.empty();
        transport.sendMessage(new McpSchema.JSONRPCNotification(CANCELLED, Map.of("requestId", id, "reason", reason)))
                .block(SEND_TIMEOUT);
        return Optional.of(id);
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        return transport.connect(incoming -> incoming.flatMap(message -> {
            if (message instanceof McpSchema.JSONRPCNotification n
                    && McpSchema.METHOD_NOTIFICATION_TOOLS_LIST_CHANGED.equals(n.method())) {
                listChanged.run();
                return Mono.empty();
            }
            return handler.apply(Mono.just(message));
        }));
    }

    @Override
    public void setExceptionHandler(Consumer<Throwable> handler) {
        transport.setExceptionHandler(e -> {
            handler.accept(e);
            broken.accept(e);
        });
    }

    @Override
    public void close() {
        transport.close();
    }

    @Override
    public Mono<Void> closeGracefully() {
        return transport.closeGracefully();
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
        return transport.unmarshalFrom(data, type);
    }

    @Override
    public List<String> protocolVersions() {
        return transport.protocolVersions();
    }
}
