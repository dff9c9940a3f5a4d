package dev.hmpagent.llm.ollama;

import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.llm.wire.ReplyException;
import dev.hmpagent.llm.wire.SseEventParser;
import dev.hmpagent.llm.wire.Lazy;
import okhttp3.Call;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSource;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * An {@link LlmClient} for Ollama's native {@code POST /api/chat}, which, unlike its OpenAI-compatible {@code /v1},
 * passes model options ({@code num_ctx}, {@code top_k}, {@code seed}…) and {@code keep_alive} on. Streams NDJSON
 * (one JSON object a line, the last with {@code "done": true} and the token counts) when the settings ask for it;
 * otherwise reads one JSON object. {@link #probe()} asks {@code /api/show}, which generates nothing.
 */
public final class OllamaClient implements LlmClient {
    static final String CHAT_PATH = "/api/chat";
    static final String SHOW_PATH = "/api/show";
    /** The longest reply text kept (4 Mi characters); a runaway reply is cut there, as if by num_predict. */
    static final int MAX_REPLY_CHARS = 4 * 1024 * 1024;
    /** The largest non-streaming body read; a bigger one is a retryable bad_response. */
    static final long MAX_BODY_BYTES = 16L * 1024 * 1024;
    private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");
    private static final long ERROR_BODY_LIMIT = 16 * 1024;
    private static final int MAX_LEADING_BLANKS = 8 * 1024;
    /** Longer call deadlines are cut to this, so nanosecond arithmetic cannot overflow. */
    private static final Duration MAX_CALL_DEADLINE = Duration.ofDays(365);

    private final OllamaSettings settings;
    /** Made at the first call, not with the client: building one reads the JDK's trust store, which a start may not need. */
    private final Supplier<OkHttpClient> http;
    private final HttpUrl chatUrl;
    private final HttpUrl showUrl;
    private final String endpoint;
    private final OllamaWire wire = new OllamaWire();
    private final ContextWindow contextWindow;
    private final OllamaErrors errors;
    /** Every call under way: a probe may run beside a completion, and {@link #cancel()} (a halt) ends them all. */
    private final Set<InFlight> inFlight = ConcurrentHashMap.newKeySet();

    public OllamaClient(OllamaSettings settings) {
        this(settings, Clock.systemUTC());
    }

    public OllamaClient(OllamaSettings settings, Clock clock) {
        this(settings, () -> httpClient(settings), clock);
    }

    /** For tests and for sharing a connection pool; the given client's timeouts apply. */
    public OllamaClient(OllamaSettings settings, OkHttpClient http, Clock clock) {
        this(settings, constant(Objects.requireNonNull(http, "http")), clock);
    }

    /** With the OkHttpClient {@code http} makes, asked once, at the first call. */
    OllamaClient(OllamaSettings settings, Supplier<OkHttpClient> http, Clock clock) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.contextWindow = ContextWindow.of(settings.baseUrl(), settings.model(), settings.options());
        this.http = new Lazy<>(Objects.requireNonNull(http, "http"));
        Objects.requireNonNull(clock, "clock");
        HttpUrl base = HttpUrl.parse(settings.baseUrl());
        if (base == null) throw new IllegalArgumentException("llm.base_url is not an http(s) URL: " + settings.baseUrl());
        this.chatUrl = HttpUrl.get(settings.baseUrl() + CHAT_PATH);
        this.showUrl = HttpUrl.get(settings.baseUrl() + SHOW_PATH);
        String shown = base.newBuilder().username("").password("").query(null).build().toString();
        this.endpoint = shown.endsWith("/") ? shown.substring(0, shown.length() - 1) : shown;
        this.errors = new OllamaErrors(endpoint, base.host(), settings.apiKey(), settings.model(),
                settings.readTimeout(), clock);
    }

    /** An OkHttpClient with the settings' timeouts. */
    static OkHttpClient httpClient(OllamaSettings settings) {
        return new OkHttpClient.Builder()
                .connectTimeout(settings.connectTimeout())
                .readTimeout(settings.readTimeout())
                .writeTimeout(settings.readTimeout())
                .build();
    }

    @Override
    public Completion complete(LlmRequest request, StreamListener listener) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(listener, "listener");
        InFlight current = start();
        try {
            return send(request, listener, current);
        } finally {
            inFlight.remove(current);
        }
    }

    /**
     * Asks {@code POST /api/show} about the model: answered (HTTP 200 with JSON) means the server runs and has the
     * model; nothing is generated and the model is not loaded. A probe cancelled by {@link #cancel()} returns quietly,
     * as a cancelled {@link #complete} does.
     *
     * @throws LlmException fatal when the model is not pulled (404) or the key is refused, retryable when the server
     *                      is unreachable or busy
     */
    @Override
    public void probe() {
        InFlight current = start();
        try {
            show(current);
        } finally {
            inFlight.remove(current);
        }
    }

    @Override
    public void cancel() {
        for (InFlight current : inFlight) current.cancel();
    }

    /** What this client said about Ollama's context size ({@link ContextWindow}), once each. */
    @Override
    public java.util.List<String> notices() {
        return contextWindow.drain();
    }

    /** The server's root URL, without credentials. */
    @Override
    public String endpoint() { return endpoint; }

    @Override
    public String model() { return settings.model(); }

    private InFlight start() {
        InFlight current = new InFlight(System.nanoTime() + deadlineNanos(settings.callDeadline()));
        inFlight.add(current);
        return current;
    }

    /**
     * One exchange within the call deadline. OkHttp cancels the call when that runs out; a cancelled call the user
     * did not cancel is therefore the deadline.
     */
    private Completion send(LlmRequest request, StreamListener listener, InFlight current) {
        boolean stream = settings.stream();
        Call call = current.attach(http.get().newCall(post(chatUrl, wire.chatBody(settings, request, stream,
                        contextWindow.forRequest(request)),
                stream ? "application/x-ndjson" : "application/json")));
        ReplyAccumulator reply = new ReplyAccumulator(MAX_REPLY_CHARS);
        try (Response response = call.execute()) {
            if (!response.isSuccessful()) throw httpError(response, CHAT_PATH);
            ResponseBody body = response.body();
            switch (format(body.contentType(), body.source(), stream)) {
                case LINES -> readLines(body.source(), reply, listener);
                case WHOLE -> readWhole(body.source(), reply, listener);
                case OTHER -> throw errors.contentType(response.code(), describe(body.contentType()));
            }
            return completion(request, reply, false);
        } catch (IOException e) {
            if (current.cancelled()) return completion(request, reply, true);
            if (call.isCanceled()) throw errors.deadline(settings.callDeadline(), reply.text(), e);
            throw errors.io(e, reply.text());
        }
    }

    private void show(InFlight current) {
        Call call = current.attach(http.get().newCall(post(showUrl, wire.showBody(settings.model()),
                "application/json")));
        try (Response response = call.execute()) {
            if (!response.isSuccessful()) throw httpError(response, SHOW_PATH);
            ResponseBody body = response.body();
            if (format(body.contentType(), body.source(), false) != Format.WHOLE) {
                throw errors.contentType(response.code(), describe(body.contentType()));
            }
        } catch (IOException e) {
            if (current.cancelled()) return;
            if (call.isCanceled()) throw errors.deadline(settings.callDeadline(), "", e);
            throw errors.io(e, "");
        }
    }

    private LlmException httpError(Response response, String path) throws IOException {
        String body = response.peekBody(ERROR_BODY_LIMIT).string();
        String message = wire.errorMessage(body);
        return errors.http(response.code(), response.headers(), message != null ? message : body, path);
    }

    /** NDJSON: one object a line, blank lines skipped, until {@code "done": true} or the reply cap. */
    private void readLines(BufferedSource source, ReplyAccumulator reply, StreamListener listener)
            throws IOException {
        SseEventParser.Line line;
        while (!reply.finished() && (line = SseEventParser.nextLine(source)) != null) {
            if (line.cut()) {
                deliver(reply.acceptCut(fitOf(line.text())), listener);   // a too-large line: keep what fit, end there
            } else if (!line.text().isBlank()) {
                deliver(reply.accept(wire.parse(line.text())), listener);
            }
        }
        if (!reply.finished()) {
            throw new ReplyException(ReplyException.TRUNCATED, "stream ended without \"done\": true", null);
        }
    }

    /** One JSON object, refused beyond {@link #MAX_BODY_BYTES} so a server cannot exhaust memory. */
    private void readWhole(BufferedSource source, ReplyAccumulator reply, StreamListener listener) throws IOException {
        if (source.request(MAX_BODY_BYTES + 1)) {
            throw ReplyException.malformed("the reply body is larger than " + MAX_BODY_BYTES / (1024 * 1024)
                    + " MB; it was not read", null);
        }
        deliver(reply.accept(wire.parse(source.readUtf8())), listener);
        if (!reply.finished()) {
            throw new ReplyException(ReplyException.TRUNCATED, "reply without \"done\": true", null);
        }
    }

    /** The first 1 MB of a longer line read as a chunk, or null when it cannot be (the server's error stays one). */
    private OllamaChunk fitOf(String start) throws ReplyException {
        try {
            return wire.parse(dev.hmpagent.llm.wire.TruncatedJson.close(start.strip()));
        } catch (ReplyException unreadable) {
            if (!unreadable.malformed()) throw unreadable;
            return null;
        }
    }

    private static void deliver(String delta, StreamListener listener) {
        if (!delta.isEmpty()) listener.onDelta(delta);
    }

    /** How to read a 2xx body. */
    private enum Format { LINES, WHOLE, OTHER }

    /**
     * From the Content-Type, leniently: any {@code *ndjson} is lines; any other {@code *json} is lines when a stream
     * was asked (a compact single object is one line) and one object otherwise; a missing or {@code text/plain}
     * type is decided by a first non-blank <code>{</code>, peeked. Anything else (a proxy's HTML page) is OTHER.
     */
    private static Format format(MediaType type, BufferedSource body, boolean stream) throws IOException {
        Format json = stream ? Format.LINES : Format.WHOLE;
        if (type != null) {
            String sub = type.subtype().toLowerCase(Locale.ROOT);
            if (sub.contains("ndjson")) return Format.LINES;
            if (sub.contains("json")) return json;
            if (!(type.type().equalsIgnoreCase("text") && sub.equals("plain"))) return Format.OTHER;
        }
        BufferedSource peek = body.peek();
        for (int blanks = 0; peek.request(1); blanks++) {
            byte b = peek.readByte();
            if (b == '{') return json;
            if (!(b == ' ' || b == '\t' || b == '\r' || b == '\n') || blanks >= MAX_LEADING_BLANKS) return Format.OTHER;
        }
        return json;   // empty: read as JSON, so it fails as the truncated or malformed reply it is
    }

    /** The type and subtype, or null when the server sent no Content-Type. */
    private static String describe(MediaType type) {
        return type == null ? null : type.type() + "/" + type.subtype();
    }

    private Request post(HttpUrl url, String body, String accept) {
        Request.Builder builder = new Request.Builder().url(url).header("Accept", accept)
                .post(RequestBody.create(body, JSON));
        if (!settings.apiKey().isEmpty()) builder.header("Authorization", "Bearer " + settings.apiKey());
        return builder.build();
    }

    private Completion completion(LlmRequest request, ReplyAccumulator reply, boolean interrupted) {
        String model = reply.model().isEmpty() ? settings.model() : reply.model();
        return new Completion(reply.text(), OllamaUsage.of(request.messages(), reply.text(), reply.counts()), model,
                reply.finishReason(), interrupted);
    }

    private static long deadlineNanos(Duration deadline) {
        return (deadline.compareTo(MAX_CALL_DEADLINE) > 0 ? MAX_CALL_DEADLINE : deadline).toNanos();
    }

    private static Supplier<OkHttpClient> constant(OkHttpClient http) {
        return () -> http;
    }

    // not wire.InFlightCall: a probe and a call may be under way together here, and each sets its own timeout
    /** The call of one {@link #complete} or {@link #probe}, its deadline ({@link System#nanoTime()} based), and whether the user cancelled it. */
    private static final class InFlight {
        private final long deadlineAt;
        private Call call;
        private boolean cancelled;

        InFlight(long deadlineAt) {
            this.deadlineAt = deadlineAt;
        }

        /** Starts the call's clock at what is left of the deadline; a call attached after a cancel is cancelled. */
        synchronized Call attach(Call next) {
            next.timeout().timeout(Math.max(1, deadlineAt - System.nanoTime()), TimeUnit.NANOSECONDS);
            call = next;
            if (cancelled) next.cancel();
            return next;
        }

        synchronized void cancel() {
            cancelled = true;
            if (call != null) call.cancel();
        }

        synchronized boolean cancelled() { return cancelled; }
    }
}
