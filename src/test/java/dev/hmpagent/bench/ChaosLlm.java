package dev.hmpagent.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code scripts/chaos}'s scripted model: a tiny OpenAI-compatible server (the JDK's own HTTP server, no network
 * beyond loopback) that answers every {@code /chat/completions} request with a short thought and one {@code shell}
 * command appending a line no other reply carries ({@code chaos-<run>-<n>}) to {@code APPEND_FILE}. Before a reply
 * leaves, its line is appended to {@code ISSUED_FILE} and flushed, so the script can tell a line that ran twice
 * (twice in the append file) or one the agent made up (in the append file, never issued).
 *
 * <p>Each reply waits 0 to {@code MAX_DELAY_MS} ms first (random), so a kill lands as often during a call as during
 * a tick's writes or a command. Streamed requests get SSE chunks with a usage chunk and {@code [DONE]}; others one
 * JSON body. {@code GET .../models/<id>} answers that the model exists.
 *
 * <p>An outage on demand ({@code scripts/chaos clock}): while a file {@code PORT_FILE.outage} exists, every completion
 * request is answered 503 at once. Each completion request is logged to {@code PORT_FILE.requests} as "epoch-ms
 * status", by this process's own clock, so the script can tell when the agent asked and retried.
 *
 * <p>An MCP call on demand ({@code scripts/chaos mcp}): while a file {@code PORT_FILE.mcp} holds a step, "TYPE
 * ARGS_JSON" (e.g. {@code mcp.bad.big {"mb": 20}}), the next reply calls that tool instead of appending a line, and the
 * file is taken (deleted) by that reply alone; the script writes the next step only once the call's row has ended, so
 * the calls run one at a time, in its order.
 *
 * <p>Run: {@code java -cp target/hmp-agent.jar:target/test-classes dev.hmpagent.bench.ChaosLlm PORT_FILE APPEND_FILE
 * ISSUED_FILE [MAX_DELAY_MS]}; it writes its port to PORT_FILE once it listens and serves until killed.
 */
public final class ChaosLlm {
    private final Path append;
    private final Writer issued;
    private final int maxDelayMs;
    private final String run = Long.toString(System.currentTimeMillis(), 36);
    private final AtomicLong next = new AtomicLong();
    private final Path outage;
    private final Path requests;
    private final Path mcpStep;

    private ChaosLlm(Path append, Writer issued, int maxDelayMs, Path portFile) {
        this.append = append;
        this.issued = issued;
        this.maxDelayMs = maxDelayMs;
        this.outage = portFile.resolveSibling(portFile.getFileName() + ".outage");
        this.requests = portFile.resolveSibling(portFile.getFileName() + ".requests");
        this.mcpStep = portFile.resolveSibling(portFile.getFileName() + ".mcp");
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            System.err.println("usage: ChaosLlm PORT_FILE APPEND_FILE ISSUED_FILE [MAX_DELAY_MS]");
            System.exit(2);
        }
        Writer issued = Files.newBufferedWriter(Path.of(args[2]), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        ChaosLlm llm = new ChaosLlm(Path.of(args[1]).toAbsolutePath(), issued,
                args.length > 3 ? Integer.parseInt(args[3]) : 40, Path.of(args[0]));
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.createContext("/", llm::handle);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.start();
        Path portFile = Path.of(args[0]);
        Path tmp = portFile.resolveSibling(portFile.getFileName() + ".tmp");
        Files.writeString(tmp, Integer.toString(server.getAddress().getPort()));
        Files.move(tmp, portFile, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            byte[] request = exchange.getRequestBody().readAllBytes();
            if ("GET".equals(exchange.getRequestMethod()) && path.contains("/models")) {
                String id = path.substring(path.lastIndexOf('/') + 1);
                send(exchange, 200, "application/json", "{\"id\":" + quote(id) + ",\"object\":\"model\"}");
                return;
            }
            if (!"POST".equals(exchange.getRequestMethod()) || !path.endsWith("/chat/completions")) {
                send(exchange, 404, "application/json", "{\"error\":{\"message\":\"no such route\"}}");
                return;
            }
            boolean down = Files.exists(outage);
            logRequest(down ? 503 : 200);
            if (down) {
                send(exchange, 503, "application/json", "{\"error\":{\"message\":\"chaos outage\"}}");
                return;
            }
            String body = new String(request, StandardCharsets.UTF_8);
            boolean stream = body.replace(" ", "").contains("\"stream\":true");
            sleepUpTo(maxDelayMs);
            String step = takeStep();
            String text = step != null ? mcpReply(step) : reply(issue());
            if (stream) {
                StringBuilder sse = new StringBuilder();
                int cut = Math.max(1, text.length() / 3);
                for (int i = 0; i < text.length(); i += cut) {
                    sse.append(chunk("{\"content\":" + quote(text.substring(i, Math.min(text.length(), i + cut)))
                            + "}", "null"));
                }
                sse.append(chunk("{}", "\"stop\""));
                sse.append("data: {\"model\":\"chaos\",\"choices\":[],\"usage\":{\"prompt_tokens\":100,"
                        + "\"completion_tokens\":40}}\n\n");
                sse.append("data: [DONE]\n\n");
                send(exchange, 200, "text/event-stream", sse.toString());
            } else {
                send(exchange, 200, "application/json", "{\"id\":\"x\",\"model\":\"chaos\",\"choices\":[{\"index\":0,"
                        + "\"message\":{\"role\":\"assistant\",\"content\":" + quote(text) + "},\"finish_reason\":"
                        + "\"stop\"}],\"usage\":{\"prompt_tokens\":100,\"completion_tokens\":40}}");
            }
        }
    }

    private synchronized void logRequest(int status) throws IOException {
        Files.writeString(requests, System.currentTimeMillis() + " " + status + "\n", StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /** The next unique line, recorded as issued (and flushed) before any reply carrying it is sent. */
    private String issue() throws IOException {
        String line = "chaos-" + run + "-" + next.incrementAndGet();
        synchronized (issued) {
            issued.write(line + "\n");
            issued.flush();
        }
        return line;
    }

    private String reply(String line) {
        String command = "echo " + line + " >> " + append;
        return "Step " + line + ": I append one more line to the log and watch for new notes.\n\n"
                + "# Commands:\n```json\n[{\"cmd_id\": \"c-1\", \"type\": \"shell\", \"args\": {\"command\": "
                + quote(command) + "}, \"description\": \"append " + line + "\"}]\n```\n# End commands\n";
    }

    /** The MCP step waiting in {@code PORT_FILE.mcp}, taken by this reply only (the one whose delete succeeds). */
    private String takeStep() throws IOException {
        if (!Files.exists(mcpStep)) return null;
        String step;
        try {
            step = Files.readString(mcpStep, StandardCharsets.UTF_8).strip();
        } catch (java.nio.file.NoSuchFileException e) {   // another reply took it meanwhile
            return null;
        }
        return Files.deleteIfExists(mcpStep) && !step.isEmpty() ? step : null;
    }

    /** A reply calling the tool of {@code step} ("TYPE ARGS_JSON"), the arguments passed as they are. */
    private static String mcpReply(String step) {
        int space = step.indexOf(' ');
        String type = space < 0 ? step : step.substring(0, space);
        String args = space < 0 ? "{}" : step.substring(space + 1);
        return "Next I call the MCP tool " + type + ".\n\n# Commands:\n```json\n[{\"cmd_id\": \"c-1\", \"type\": "
                + quote(type) + ", \"args\": " + args + ", \"description\": \"call " + type + "\"}]\n```\n"
                + "# End commands\n";
    }

    private static void sleepUpTo(int maxMs) {
        if (maxMs <= 0) return;
        try {
            Thread.sleep(ThreadLocalRandom.current().nextInt(maxMs + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String chunk(String delta, String finish) {
        return "data: {\"model\":\"chaos\",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":"
                + finish + "}]}\n\n";
    }

    private static void send(HttpExchange exchange, int code, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> {
                    if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
            }
        }
        return b.append('"').toString();
    }
}
