package dev.hmpagent.llm.ollama;

import dev.hmpagent.llm.CallCancel;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.llm.wire.EventStream;
import dev.hmpagent.llm.wire.HttpCalls;
import dev.hmpagent.llm.wire.InFlightCall;
import dev.hmpagent.llm.wire.ReplyException;
import dev.hmpagent.llm.wire.SseEventParser;
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
import java.util.Locale;
import java.util.Objects;
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
    private static final int MAX_LEADING_BLANKS = 8 * 1024;

    private final OllamaSettings settings;
    /** The OkHttpClient is made at the first call; a probe may run beside a completion, and a halt ends them all. */
    private final HttpCalls calls;
    private final HttpUrl chatUrl;
    private final HttpUrl showUrl;
    private final String endpoint;
    private final OllamaWire wire = new OllamaWire();
    private final ContextWindow contextWindow;
    private final OllamaErrors errors;

    public OllamaClient(OllamaSettings settings) {
        this(settings, Clock.systemUTC());
    }

    public OllamaClient(OllamaSettings settings, Clock clock) {
        this(settings, () -> httpClient(settings), clock);
    }

    /** For tests and for sharing a connection pool; the given client's timeouts apply. */
    public OllamaClient(OllamaSettings settings, OkHttpClient http, Clock clock) {
        this(settings, HttpCalls.constant(http), clock);
    }

    /** With the OkHttpClient {@code http} makes, asked once, at the first call. */
    OllamaClient(OllamaSettings settings, Supplier<OkHttpClient> http, Clock clock) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.contextWindow = ContextWindow.of(settings.baseUrl(), settings.model(), settings.options());
        Objects.requireNonNull(http, "http");
        Objects.requireNonNull(clock, "clock");
        HttpUrl base = HttpUrl.parse(settings.baseUrl());
        if (base == null) throw new IllegalArgumentException("llm.base_url is not an http(s) URL: " + settings.baseUrl());
        this.chatUrl = HttpUrl.get(settings.baseUrl() + CHAT_PATH);
        this.showUrl = HttpUrl.get(settings.baseUrl() + SHOW_PATH);
        String shown = base.newBuilder().username("").password("").query(null).build().toString();
        this.endpoint = shown.endsWith("/") ? shown.substring(0, shown.length() - 1) : shown;
        this.errors = new OllamaErrors(endpoint, base.host(), settings.apiKey(), settings.model(),
                settings.readTimeout(), clock);
        this.calls = new HttpCalls(http, settings.callDeadline(), errors.wire());
    }

    /** An OkHttpClient with the settings' timeouts. */
    static OkHttpClient httpClient(OllamaSettings settings) {
        return HttpCalls.client(settings.connectTimeout(), settings.readTimeout());
    }

    @Override
    public Completion complete(LlmRequest request, StreamListener listener, CallCancel cancel) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(listener, "listener");
        return calls.call(cancel, current -> send(request, listener, current));
    }

    /**
     * Asks {@code POST /api/show} about the model: answered (HTTP 200 with JSON) means the server runs and has the
     * model; nothing is generated and the model is not loaded. A probe cancelled by its {@link CallCancel} returns quietly,
     * as a cancelled {@link #complete} does.
     *
     * @throws LlmException fatal when the model is not pulled (404) or the key is refused, retryable when the server
     *                      is unreachable or busy
     */
    @Override
    public void probe(CallCancel cancel) {
        Request request = post(showUrl, wire.showBody(settings.model()), "application/json");
        calls.call(cancel, current -> calls.exchange(current, request, new Exchange<Void>(SHOW_PATH) {
            @Override
            public Void read(Response response) throws IOException {
                ResponseBody body = response.body();
                if (format(body.contentType(), body.source(), false) != Format.WHOLE) {
                    throw errors.contentType(response.code(), describe(body.contentType()));
                }
                return null;
            }

            @Override
            public Void cancelled() { return null; }

            @Override
            public String partialText() { return ""; }
        }));
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

    /** A reading whose non-2xx statuses are Ollama's errors for {@code path}. */
    private abstract class Exchange<T> implements HttpCalls.Reading<T> {
        private final String path;

        Exchange(String path) {
            this.path = path;
        }

        @Override
        public RuntimeException status(Response response, String body) {
            String message = wire.errorMessage(body);
            return errors.http(response.code(), response.headers(), message != null ? message : body, path);
        }
    }

    /** One exchange within the call deadline. */
    private Completion send(LlmRequest request, StreamListener listener, InFlightCall current) {
        boolean stream = settings.stream();
        Request post = post(chatUrl, wire.chatBody(settings, request, stream, contextWindow.forRequest(request)),
                stream ? "application/x-ndjson" : "application/json");
        ReplyAccumulator reply = new ReplyAccumulator(MAX_REPLY_CHARS);
        return calls.exchange(current, post, new Exchange<>(CHAT_PATH) {
            @Override
            public Completion read(Response response) throws IOException {
                ResponseBody body = response.body();
                switch (format(body.contentType(), body.source(), stream)) {
                    case LINES -> readLines(body.source(), reply, listener);
                    case WHOLE -> readWhole(body.source(), reply, listener);
                    case OTHER -> throw errors.contentType(response.code(), describe(body.contentType()));
                }
                return completion(request, reply, false);
            }

            @Override
            public Completion cancelled() { return completion(request, reply, true); }

            @Override
            public String partialText() { return reply.text(); }
        });
    }

    /** NDJSON: one object a line, blank lines skipped, until {@code "done": true} or the reply cap. */
    private void readLines(BufferedSource source, ReplyAccumulator reply, StreamListener listener)
            throws IOException {
        SseEventParser.Line line;
        while (!reply.finished() && (line = SseEventParser.nextLine(source)) != null) {
            if (line.cut()) {
                EventStream.deliver(reply.acceptCut(fitOf(line.text())), listener);   // a too-large line: keep what fit, end there
            } else if (!line.text().isBlank()) {
                EventStream.deliver(reply.accept(wire.parse(line.text())), listener);
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
        EventStream.deliver(reply.accept(wire.parse(source.readUtf8())), listener);
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
        return new Completion(reply.text(), OllamaUsage.of(request.messages(), reply.text(), reply.counts(), interrupted),
                model,
                reply.finishReason(), interrupted, reply.toolCalls());
    }
}
