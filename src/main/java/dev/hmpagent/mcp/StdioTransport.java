package dev.hmpagent.mcp;

import dev.hmpagent.process.ServerStart;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * A stdio server's transport, ours rather than the SDK's: the SDK's (2.1.0) ends its read loop for good on the first
 * line of stdout it cannot parse (a server's banner, a stray log line), and then every call waits its whole timeout,
 * and a line over its size limit ends it too. Here a line that is not JSON-RPC is dropped (the first one told, so the
 * person can see what the server wrote), a line over {@link #CAP} bytes is read to its end without being kept and
 * refused, its call answered with our error naming the size, and the end of the stream is told as the server's
 * failure, never waited out.
 */
final class StdioTransport implements McpClientTransport {
    /** The longest line read from a server: 16 MB (a tool's result is cut at 16,000 characters anyway). */
    static final int CAP = 16_000_000;
    /** The JSON-RPC error code of our answer to a call whose result was refused (the implementation's range). */
    static final int REFUSED = -32001;
    /** The longest line kept of a server's stderr (its last words, said when it fails). */
    private static final int STDERR_CAP = 64 * 1024;

    /** What the transport tells its connection, each on the reader thread. */
    interface Listener {
        /** A line that is not JSON-RPC was dropped. */
        void junk(String line);

        /** A line over {@link #CAP} was refused: {@code text} says it; {@code answered} when its call was told. */
        void refused(String text, boolean answered);

        /** The server's stdout ended (it exited, or closed it): {@code why}, in a person's words. */
        void ended(String why);
    }

    private final List<String> command;
    private final Map<String, String> env;
    private final McpJsonMapper json;
    private final ServerStderr stderr;
    private final Listener listener;
    private final String server;
    /** Writes to the server's stdin, one message at a time, off the callers' threads. */
    private final ExecutorService writer = Executors.newSingleThreadExecutor(daemon("mcp-write"));
    private final Scheduler writes = Schedulers.fromExecutorService(writer, "mcp-write");
    private volatile Process process;
    private volatile boolean closing;

    StdioTransport(String server, List<String> command, Map<String, String> env, McpJsonMapper json,
                   ServerStderr stderr, Listener listener) {
        this.server = Objects.requireNonNull(server, "server");
        this.command = List.copyOf(command);
        this.env = Map.copyOf(env);
        this.json = Objects.requireNonNull(json, "json");
        this.stderr = Objects.requireNonNull(stderr, "stderr");
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /** The server's process, once started. */
    Optional<ProcessHandle> process() {
        Process p = process;
        return p == null ? Optional.empty() : Optional.of(p.toHandle());
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        return Mono.fromRunnable(() -> {
            try {
                // the server gets only the allow-list and its entry's env, never the agent's own variables
                process = ServerStart.start(command, env);
            } catch (IOException | RuntimeException e) {
                throw new IllegalStateException("could not start " + command.get(0) + ": "
                        + McpWords.message(e), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("the start of " + command.get(0) + " was interrupted", e);
            }
            Process p = process;
            thread("mcp-read-" + server, () -> read(p, handler));
            thread("mcp-stderr-" + server, () -> readStderr(p));
        });
    }

    private void read(Process p, Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        CappedLines lines = new CappedLines(p.getInputStream(), CAP);
        try {
            for (Optional<CappedLines.Line> line = lines.next(); line.isPresent(); line = lines.next()) {
                if (closing) return;
                take(line.get(), handler);
            }
        } catch (IOException e) {
            // the pipe broke: said below as the end of the stream
        }
        if (closing) return;
        listener.ended(ended(p));
    }

    /** Gives one line to the SDK when it is a JSON-RPC message; otherwise drops or refuses it, saying so. */
    private void take(CappedLines.Line line,
                      Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        if (line.refused()) {
            String text = "a message of " + McpWords.megabytes(line.bytes()) + " from MCP server " + server
                    + " was refused (limit " + McpWords.megabytes(CAP) + ")";
            Optional<Object> id = idOf(line.ends());
            id.ifPresent(i -> deliver(handler, McpSchema.JSONRPCResponse.error(i,
                    new McpSchema.JSONRPCResponse.JSONRPCError(REFUSED, text))));
            listener.refused(text, id.isPresent());
            return;
        }
        String text = line.text();
        if (text.isBlank()) return;
        McpSchema.JSONRPCMessage message;
        try {
            message = text.stripLeading().startsWith("{") ? McpSchema.deserializeJsonRpcMessage(json, text) : null;
        } catch (IOException | RuntimeException e) {   // Jackson's and the SDK's refusals of a line: not JSON-RPC
            message = null;
        }
        if (message == null) {
            listener.junk(text);
        } else {
            deliver(handler, message);
        }
    }

    /** An answer's id at the top level of its first bytes ({@code {"jsonrpc":"2.0","id":7,…}) or its last ones. */
    private static final java.util.regex.Pattern HEAD_ID = java.util.regex.Pattern.compile(
            "^\\s*\\{[^{\\[]*?\"id\"\\s*:\\s*(\"[^\"\\\\]*\"|-?\\d{1,18})");
    private static final java.util.regex.Pattern TAIL_ID = java.util.regex.Pattern.compile(
            "\"id\"\\s*:\\s*(\"[^\"\\\\]*\"|-?\\d{1,18})[^{}\\[\\]]*}\\s*$");

    /**
     * The id of a refused line, read from its ends ({@link CappedLines.Line#ends}, head " … " tail): where a server
     * writes it first or last, outside the result's own objects; empty when it is not there.
     */
    static Optional<Object> idOf(String ends) {
        int cut = ends.indexOf(" … ");
        String head = cut < 0 ? ends : ends.substring(0, cut);
        String tail = cut < 0 ? ends : ends.substring(cut + 3);
        java.util.regex.Matcher m = HEAD_ID.matcher(head);
        if (!m.find()) {
            m = TAIL_ID.matcher(tail);
            if (!m.find()) return Optional.empty();
        }
        String id = m.group(1);
        if (id.startsWith("\"")) return Optional.of(id.substring(1, id.length() - 1));
        long n = Long.parseLong(id);
        return Optional.of(n == (int) n ? (Object) (int) n : (Object) n);
    }

    private static void deliver(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler,
                                McpSchema.JSONRPCMessage message) {
        handler.apply(Mono.just(message)).subscribe(m -> { }, e -> { });
    }

    /** Why the stream ended: the process exited (with its status), or it closed its stdout and runs on. */
    private static String ended(Process p) {
        try {
            if (p.waitFor(500, TimeUnit.MILLISECONDS)) return "exited";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "closed its stdout (it runs on, but can no longer answer)";
    }

    private void readStderr(Process p) {
        CappedLines lines = new CappedLines(p.getErrorStream(), STDERR_CAP);
        try {
            for (Optional<CappedLines.Line> line = lines.next(); line.isPresent(); line = lines.next()) {
                if (!line.get().refused() && !line.get().text().isBlank()) stderr.add(line.get().text());
            }
        } catch (IOException e) {
            // its stderr closed: nothing more to keep
        } finally {
            stderr.ended();
        }
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        return Mono.<Void>fromRunnable(() -> write(message)).subscribeOn(writes);
    }

    private void write(McpSchema.JSONRPCMessage message) {
        Process p = process;
        if (p == null || closing) throw new IllegalStateException("the server is not running");
        try {
            // a line per message: a newline inside one would end it (the compact JSON has none of its own)
            String line = json.writeValueAsString(message).replace("\r", "\\r").replace("\n", "\\n") + "\n";
            OutputStream in = p.getOutputStream();
            in.write(line.getBytes(StandardCharsets.UTF_8));
            in.flush();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("could not write to the server: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        closing = true;
        Process p = process;
        if (p != null) {
            try {
                p.getOutputStream().close();
            } catch (IOException e) {
                // its stdin is gone already: the process is ended below all the same
            }
            p.destroy();
        }
        writes.dispose();
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(this::close);
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
        return json.convertValue(data, type);
    }

    private static void thread(String name, Runnable body) {
        daemon(name).newThread(body).start();
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}
