package dev.hmpagent.a2a.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Server-sent events on an exchange: {@code data: <JSON-RPC response>} and a blank line each, flushed at once. */
final class SseEvents implements Rpc.Events {
    private final OutputStream out;

    SseEvents(HttpExchange ex) throws IOException {
        ex.getResponseHeaders().set("Content-Type", "text/event-stream");
        ex.getResponseHeaders().set("Cache-Control", "no-store");
        ex.sendResponseHeaders(200, 0);
        this.out = ex.getResponseBody();
    }

    @Override
    public void send(ObjectNode response) throws IOException {
        out.write(("data: " + response + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
