package dev.hmpagent.a2a.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.hmpagent.a2a.A2aWire;
import dev.hmpagent.config.A2aSection;
import dev.hmpagent.config.ConfigException;
import dev.hmpagent.store.Store;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The agent as an A2A peer (issue 37): the JDK's own HTTP server (no application server in a CLI) on {@code
 * a2a.listen}, serving the agent card at {@link A2aWire#CARD_PATH} and the protocol's JSON-RPC methods at {@code /}
 * ({@link Rpc}). It reads and writes the agent's file on a connection of its own, so it runs beside the REPL or
 * {@code agent run}, or alone ({@code agent a2a serve}), where the notes it takes wait for the next agent on the file.
 */
public final class A2aServer implements AutoCloseable {
    /** Threads serving requests; a stream holds one while it is open. */
    static final int THREADS = 16;

    /** What a server is started with. */
    public record Settings(Path db, Clock clock, A2aSection config, Map<String, String> env, String agentName,
                           String version, Duration blockingWait) {
        public Settings {
            Objects.requireNonNull(db, "db");
            Objects.requireNonNull(clock, "clock");
            Objects.requireNonNull(config, "config");
            env = Map.copyOf(env);
            Objects.requireNonNull(agentName, "agentName");
            Objects.requireNonNull(version, "version");
            Objects.requireNonNull(blockingWait, "blockingWait");
        }

        /** A blocking SendMessage waits at most this long for the answer before it returns the task as it is. */
        public static final Duration BLOCKING_WAIT = Duration.ofMinutes(10);
    }

    private final HttpServer http;
    private final ExecutorService threads;
    private final Store store;
    private final Callers callers;
    private final Settings settings;
    private final Rpc rpc;
    private final int resumed;

    private A2aServer(HttpServer http, ExecutorService threads, Store store, Callers callers, Settings settings, Rpc rpc,
                      int resumed) {
        this.http = http;
        this.threads = threads;
        this.store = store;
        this.callers = callers;
        this.settings = settings;
        this.rpc = rpc;
        this.resumed = resumed;
    }

    /**
     * Starts serving; throws ConfigException (one line) when the address is not host:port, cannot be bound, or needs
     * tokens it has not. Tasks the agent had read but not answered when it stopped are read anew ({@link #resumed()}).
     */
    public static A2aServer start(Settings settings) {
        String listen = settings.config().listen().strip();
        int colon = listen.lastIndexOf(':');
        if (colon <= 0) throw new ConfigException("a2a.listen = \"" + listen + "\" is not host:port: write e.g."
                + " 127.0.0.1:7420");
        String host = listen.substring(0, colon).replaceAll("^\\[|\\]$", "");
        int port;
        try {
            port = Integer.parseInt(listen.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new ConfigException("a2a.listen = \"" + listen + "\" has no port number: write e.g. 127.0.0.1:7420");
        }
        Callers callers = Callers.of(settings.config(), host, settings.env(), settings.clock());
        HttpServer http;
        try {
            http = HttpServer.create(new InetSocketAddress(host, port), 64);
        } catch (IOException e) {
            throw new ConfigException("a2a.listen = \"" + listen + "\" cannot be served (" + e.getMessage()
                    + "): another program may use the port; choose another one, or 0 for any free port", e);
        }
        Store store = Store.open(settings.db(), settings.clock());
        AtomicInteger n = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(THREADS, r -> {
            Thread t = new Thread(r, "a2a-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        ServedTasks tasks = new ServedTasks(store);
        int resumed = tasks.resumeInFlight();
        Rpc rpc = new Rpc(tasks, settings.config().maxDepth(), settings.blockingWait(),
                settings.config().callerTokensPerDay());
        A2aServer server = new A2aServer(http, threads, store, callers, settings, rpc, resumed);
        http.createContext("/", server::handle);
        http.setExecutor(threads);
        http.start();
        return server;
    }

    /** The port it listens on (the one chosen, when {@code a2a.listen} said 0). */
    public int port() {
        return http.getAddress().getPort();
    }

    /** The base URL a peer on this machine reaches it at. */
    public String url() {
        String host = http.getAddress().getAddress().isAnyLocalAddress() ? "127.0.0.1"
                : http.getAddress().getAddress().getHostAddress();
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port() + "/";
    }

    /** Tasks in flight at the last stop that the agent reads anew. */
    public int resumed() {
        return resumed;
    }

    /** One line for the person: where it serves, and to whom. */
    public String describe() {
        return "A2A: serving " + url() + " (agent card " + url().replaceAll("/$", "") + A2aWire.CARD_PATH + "), "
                + (callers.needTokens() ? "callers with a token of a2a.tokens (" + String.join(", ",
                settings.config().tokens()) + ")" : "loopback only, no token")
                + (resumed > 0 ? "; " + resumed + " task(s) in flight at the last stop are read anew" : "");
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getPath();
            if (ex.getRequestMethod().equals("GET") && (path.equals(A2aWire.CARD_PATH)
                    || path.equals("/.well-known/agent.json"))) {
                send(ex, 200, "application/json", card(ex).toString());
            } else if (ex.getRequestMethod().equals("POST") && (path.equals("/") || path.isEmpty())) {
                post(ex);
            } else {
                send(ex, 404, "text/plain; charset=utf-8", "not found: the agent card is at " + A2aWire.CARD_PATH
                        + ", JSON-RPC at / (POST)\n");
            }
        } catch (IOException | RuntimeException e) {
            // the caller went away mid-answer, or a fault of ours: the exchange is closed, the server goes on
            if (!(e instanceof IOException)) e.printStackTrace(System.err);
        }
    }

    private void post(HttpExchange ex) throws IOException {
        JsonNode none = NullNode.getInstance();
        Optional<String> caller = callers.who(ex.getRequestHeaders().getFirst("Authorization"));
        if (caller.isEmpty()) {
            ex.getResponseHeaders().set("WWW-Authenticate", "Bearer");
            send(ex, 401, "application/json", A2aWire.error(none, A2aWire.INVALID_REQUEST, "unauthorized: send"
                    + " Authorization: Bearer <token> with a token this agent's a2a.tokens holds").toString());
            return;
        }
        byte[] body = readAtMost(ex.getRequestBody(), settings.config().maxMessageBytes());
        if (body == null) {
            send(ex, 413, "application/json", A2aWire.error(none, A2aWire.INVALID_REQUEST, "the request is over "
                    + settings.config().maxMessageBytes() + " bytes (a2a.max_message_bytes): send less").toString());
            return;
        }
        Optional<ObjectNode> wrongHeaders = headers(ex);
        if (wrongHeaders.isPresent()) {
            json(ex, wrongHeaders.get());
            return;
        }
        JsonNode request;
        try {
            request = A2aWire.JSON.readTree(body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            json(ex, A2aWire.error(none, A2aWire.PARSE_ERROR, "the body is not JSON: " + e.getOriginalMessage()));
            return;
        }
        rpc.call(caller.get(), request, new Rpc.Reply() {
            @Override public boolean admit() { return callers.admit(caller.get()); }
            @Override public void json(ObjectNode response) throws IOException { A2aServer.json(ex, response); }
            @Override public void refuse429(ObjectNode response) throws IOException {
                ex.getResponseHeaders().set("Retry-After", Long.toString(callers.retryAfterSeconds()));
                send(ex, 429, "application/json", response.toString());
            }
            @Override public Rpc.Events stream() throws IOException { return new SseEvents(ex); }
        });
    }

    /** The error for a request whose content type or protocol version this server does not take, if so. */
    private static Optional<ObjectNode> headers(HttpExchange ex) {
        JsonNode none = NullNode.getInstance();
        String type = String.valueOf(ex.getRequestHeaders().getFirst("Content-Type"));
        if (!type.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
            return Optional.of(A2aWire.error(none, A2aWire.CONTENT_TYPE, "Content-Type must be application/json, not "
                    + type));
        }
        String version = ex.getRequestHeaders().getFirst(A2aWire.VERSION_HEADER);
        if (version == null || !(version.strip().equals("1") || version.strip().startsWith("1."))) {
            return Optional.of(A2aWire.error(none, A2aWire.VERSION_NOT_SUPPORTED, "A2A protocol version "
                    + (version == null ? "0.3 (no " + A2aWire.VERSION_HEADER + " header)" : version)
                    + " is not served: send " + A2aWire.VERSION_HEADER + ": " + A2aWire.VERSION));
        }
        return Optional.empty();
    }

    private ObjectNode card(HttpExchange ex) {
        String host = ex.getRequestHeaders().getFirst("Host");
        String url = host == null || host.isBlank() ? url() : "http://" + host + "/";
        return AgentCard.of(settings.agentName(), settings.version(), url, callers.needTokens());
    }

    /** The body, or null when it is over {@code max} bytes. */
    private static byte[] readAtMost(InputStream in, int max) throws IOException {
        byte[] got = in.readNBytes(max + 1);
        return got.length > max ? null : got;
    }

    static void json(HttpExchange ex, ObjectNode response) throws IOException {
        send(ex, 200, "application/json", response.toString());
    }

    static void send(HttpExchange ex, int status, String type, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        http.stop(0);
        threads.shutdownNow();
        synchronized (store) {
            store.close();
        }
    }
}
