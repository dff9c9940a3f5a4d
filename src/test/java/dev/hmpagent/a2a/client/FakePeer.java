package dev.hmpagent.a2a.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A small A2A 1.0 peer over the JDK's HTTP server, for tests: it serves a card and answers SendMessage with a completed
 * task echoing the text ({@code echo: TEXT}), SendStreamingMessage with SSE events, a 401 to a wrong token, and, when
 * told to hang, names its task and holds the answer until CancelTask comes. Every request it received is kept.
 */
public final class FakePeer implements AutoCloseable {
    /** One request as received: method, path, headers (first value each, lower-case names) and body. */
    public record Received(String method, String path, Map<String, String> headers, JsonNode body) { }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpServer server;
    final List<Received> received = new CopyOnWriteArrayList<>();
    /** Counted down when a hanging send has named its task (the test may halt now). */
    final CountDownLatch hanging = new CountDownLatch(1);
    private final CountDownLatch cancelled = new CountDownLatch(1);
    private volatile boolean streaming;
    private volatile String token;
    private volatile boolean hang;
    private volatile String card;
    /** When set, a card request counts {@code cardAsked} down and waits for {@code cardRelease} before its answer. */
    private volatile CountDownLatch cardAsked;
    private volatile CountDownLatch cardRelease;

    public FakePeer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "fake-a2a-peer");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/", this::handle);
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public FakePeer streaming() { streaming = true; return this; }

    public FakePeer token(String t) { token = t; return this; }

    FakePeer hanging() { hang = true; return this; }

    /** Holds each card request: {@code asked} counted down when one comes, answered once {@code release} is. */
    FakePeer holdingCard(CountDownLatch asked, CountDownLatch release) {
        cardAsked = asked;
        cardRelease = release;
        return this;
    }

    /** Serves {@code json} as its card instead of its own. */
    FakePeer card(String json) { card = json; return this; }

    public String cardJson() {
        if (card != null) return card;
        return "{\"name\":\"Echo\",\"description\":\"Echoes the text\",\"supportedInterfaces\":[{\"url\":\"" + url()
                + "/\",\"protocolBinding\":\"JSONRPC\",\"protocolVersion\":\"1.0\"}],\"capabilities\":{\"streaming\":"
                + streaming + "},\"skills\":[{\"id\":\"echo\",\"name\":\"Echo\",\"description\":\"Echo text back\"}]"
                + (token == null ? "" : ",\"securitySchemes\":{\"bearer\":{\"httpAuthSecurityScheme\":{\"scheme\":"
                + "\"Bearer\"}}},\"securityRequirements\":[{\"schemes\":{\"bearer\":{}}}]") + "}";
    }

    /** The JSON-RPC requests received, in order. */
    public List<Received> posts() {
        return received.stream().filter(r -> r.method().equals("POST")).toList();
    }

    private void handle(HttpExchange ex) throws IOException {
        byte[] in = ex.getRequestBody().readAllBytes();
        Map<String, String> headers = new java.util.TreeMap<>();
        ex.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(java.util.Locale.ROOT), v.get(0)));
        JsonNode body = in.length == 0 ? JSON.nullNode() : JSON.readTree(in);
        received.add(new Received(ex.getRequestMethod(), ex.getRequestURI().getPath(), headers, body));
        if (ex.getRequestMethod().equals("GET")) {
            if (ex.getRequestURI().getPath().equals("/.well-known/agent-card.json")) {
                if (cardAsked != null) {
                    cardAsked.countDown();
                    try {
                        cardRelease.await(30, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                reply(ex, 200, cardJson());
            }
            else reply(ex, 404, "{}");
            return;
        }
        if (token != null && !("Bearer " + token).equals(headers.get("authorization"))) {
            reply(ex, 401, "{\"error\":\"unauthorized\"}");
            return;
        }
        String id = body.path("id").asText();
        String method = body.path("method").asText();
        String text = body.path("params").path("message").path("parts").path(0).path("text").asText();
        switch (method) {
            case "CancelTask" -> {
                cancelled.countDown();
                reply(ex, 200, rpc(id, "{\"id\":\"" + body.path("params").path("id").asText()
                        + "\",\"contextId\":\"c-1\",\"status\":{\"state\":\"TASK_STATE_CANCELED\"}}"));
            }
            case "SendStreamingMessage" -> stream(ex, id, text);
            case "SendMessage" -> {
                if (hang) {
                    hanging.countDown();
                    await();
                    reply(ex, 200, rpc(id, "{\"task\":" + task("TASK_STATE_CANCELED", "") + "}"));
                } else {
                    reply(ex, 200, rpc(id, "{\"task\":" + task("TASK_STATE_COMPLETED", "echo: " + text) + "}"));
                }
            }
            default -> reply(ex, 200, "{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"error\":{\"code\":-32601,"
                    + "\"message\":\"Method not found\"}}");
        }
    }

    private void stream(HttpExchange ex, String id, String text) throws IOException {
        ex.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        ex.sendResponseHeaders(200, 0);
        try (OutputStream out = ex.getResponseBody()) {
            event(out, rpc(id, "{\"task\":" + task("TASK_STATE_SUBMITTED", "") + "}"));
            out.write(": ping\r\n\r\n".getBytes(StandardCharsets.UTF_8));
            event(out, rpc(id, "{\"statusUpdate\":{\"taskId\":\"t-1\",\"contextId\":\"c-1\",\"status\":{\"state\":"
                    + "\"TASK_STATE_WORKING\"}}}"));
            if (hang) {
                hanging.countDown();
                await();
                return;
            }
            event(out, rpc(id, "{\"artifactUpdate\":{\"taskId\":\"t-1\",\"contextId\":\"c-1\",\"artifact\":{"
                    + "\"artifactId\":\"a-1\",\"parts\":[{\"text\":\"streamed: " + text + "\"}]}}}"));
            event(out, rpc(id, "{\"statusUpdate\":{\"taskId\":\"t-1\",\"contextId\":\"c-1\",\"status\":{\"state\":"
                    + "\"TASK_STATE_COMPLETED\"}}}"));
        }
    }

    private void await() {
        try {
            cancelled.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void event(OutputStream out, String data) throws IOException {
        out.write(("data: " + data + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static String task(String state, String answer) {
        return "{\"id\":\"t-1\",\"contextId\":\"c-1\",\"status\":{\"state\":\"" + state + "\"" + (answer.isEmpty() ? ""
                : ",\"message\":{\"messageId\":\"m-2\",\"role\":\"ROLE_AGENT\",\"parts\":[{\"text\":"
                + JSON.getNodeFactory().textNode(answer) + "}]}") + "}}";   // quoted: a text may hold quotes
    }

    private static String rpc(String id, String result) {
        return "{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"result\":" + result + "}";
    }

    private static void reply(HttpExchange ex, int code, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        cancelled.countDown();
        server.stop(0);
    }
}
