package dev.hmpagent.llm.anthropic;

import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.llm.TokenEstimator;
import dev.hmpagent.llm.Usage;
import dev.hmpagent.llm.wire.BaseUrl;
import dev.hmpagent.llm.wire.Bodies;
import dev.hmpagent.llm.wire.BodyFormat;
import dev.hmpagent.llm.wire.InFlightCall;
import dev.hmpagent.llm.wire.Lazy;
import dev.hmpagent.llm.wire.ReplyException;
import dev.hmpagent.llm.wire.SseEventParser;
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
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * An {@link LlmClient} for Anthropic's Messages API ({@code POST /v1/messages}). Streams when asked (server-sent
 * events: message_start, content blocks, message_delta, message_stop); puts prompt-cache breakpoints on the system
 * prompt and on stable prefixes (see {@link AnthropicWire}) and reports the cached prompt tokens. Sends the key as
 * {@code x-api-key}, never as {@code Authorization}. {@link #probe()} asks for the model's description, not a reply.
 */
public final class AnthropicClient implements LlmClient {
    /** The API version every request names; the wire format here is that version's. */
    static final String API_VERSION = "2023-06-01";
    /** Exactly this content type: OkHttp would add a charset to a String body's type. */
    private static final MediaType JSON = MediaType.get("application/json");
    private static final long ERROR_BODY_LIMIT = 16 * 1024;
    /** The longest reply text kept (4 Mi characters); a runaway reply is cut there, as if by max_tokens. */
    static final int MAX_REPLY_CHARS = Bodies.MAX_REPLY_CHARS;
    /** The largest non-streaming body read; a bigger one is a retryable bad_response. */
    static final long MAX_BODY_BYTES = Bodies.MAX_BODY_BYTES;

    private final AnthropicSettings settings;
    /** Made at the first call, not with the client: building an OkHttpClient sets up TLS (see {@link Lazy}). */
    private final Supplier<OkHttpClient> http;
    private final HttpUrl messagesUrl;
    private final HttpUrl modelUrl;
    private final String endpoint;
    private final AnthropicWire wire = new AnthropicWire();
    private final AnthropicErrors errors;
    private final AtomicReference<InFlightCall> inFlight = new AtomicReference<>();

    public AnthropicClient(AnthropicSettings settings) {
        this(settings, Clock.systemUTC());
    }

    public AnthropicClient(AnthropicSettings settings, Clock clock) {
        this(settings, () -> httpClient(settings), clock);
    }

    /** For tests and for sharing a connection pool; the given client's timeouts apply. */
    public AnthropicClient(AnthropicSettings settings, OkHttpClient http, Clock clock) {
        this(settings, constant(Objects.requireNonNull(http, "http")), clock);
    }

    /** With the OkHttpClient {@code http} makes, asked once, at the first call. */
    AnthropicClient(AnthropicSettings settings, Supplier<OkHttpClient> http, Clock clock) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.http = new Lazy<>(Objects.requireNonNull(http, "http"));
        Objects.requireNonNull(clock, "clock");
        BaseUrl base = BaseUrl.parse(settings.baseUrl());
        // "https://api.anthropic.com" and "https://api.anthropic.com/v1" both mean the same API
        String v1 = base.pathEndsWith("/v1") ? "" : "/v1";
        this.messagesUrl = base.resolve(v1 + "/messages");
        this.modelUrl = base.resolve(v1 + "/models").newBuilder().addPathSegment(settings.model()).build();
        this.endpoint = base.endpoint();
        this.errors = new AnthropicErrors(endpoint, base.host(), settings.apiKey(), settings.model(),
                settings.readTimeout(), clock);
    }

    /** An OkHttpClient with the settings' timeouts. */
    static OkHttpClient httpClient(AnthropicSettings settings) {
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
        InFlightCall current = new InFlightCall(settings.callDeadline());
        inFlight.set(current);
        try {
            return send(request, listener, settings.stream(), current);
        } finally {
            inFlight.compareAndSet(current, null);
        }
    }

    /**
     * Asks for the model's description ({@code GET /v1/models/{model}}): an answer means the key, the address and
     * the model are good, at no token cost. A cancelled probe returns quietly, as a cancelled default probe would.
     */
    @Override
    public void probe() {
        InFlightCall current = new InFlightCall(settings.callDeadline());
        inFlight.set(current);
        try {
            askForModel(current);
        } finally {
            inFlight.compareAndSet(current, null);
        }
    }

    private void askForModel(InFlightCall current) {
        Call call = http.get().newCall(headers(new Request.Builder().url(modelUrl).get(), false).build());
        call.timeout().timeout(Math.max(1, current.remainingNanos()), TimeUnit.NANOSECONDS);   // 0 would mean none
        current.attach(call);
        try (Response response = call.execute()) {
            if (!response.isSuccessful()) throw httpError(response);
            ResponseBody body = response.body();
            MediaType type = body.contentType();
            if (BodyFormat.of(type, body.source(), BodyFormat.JSON) != BodyFormat.JSON) {
                throw errors.wire().contentType(response.code(), Bodies.describe(type));
            }
        } catch (IOException e) {
            if (current.cancelled()) return;
            if (call.isCanceled()) throw errors.wire().deadline(settings.callDeadline(), "", e);
            throw errors.wire().io(e, "");
        }
    }

    @Override
    public void cancel() {
        InFlightCall current = inFlight.get();
        if (current != null) current.cancel();
    }

    @Override
    public String endpoint() { return endpoint; }

    @Override
    public String model() { return settings.model(); }

    /**
     * One HTTP exchange within the call deadline. OkHttp cancels the call when that runs out; a cancelled call the
     * user did not cancel is therefore the deadline.
     */
    private Completion send(LlmRequest request, StreamListener listener, boolean stream, InFlightCall current) {
        Call call = http.get().newCall(httpRequest(request, stream));
        call.timeout().timeout(Math.max(1, current.remainingNanos()), TimeUnit.NANOSECONDS);   // 0 would mean none
        current.attach(call);
        AnthropicStream partial = new AnthropicStream(wire, MAX_REPLY_CHARS);
        try (Response response = call.execute()) {
            if (!response.isSuccessful()) throw httpError(response);
            ResponseBody body = response.body();
            MediaType type = body.contentType();
            BodyFormat format = BodyFormat.of(type, body.source(), stream ? BodyFormat.EVENT_STREAM : BodyFormat.JSON);
            if (format == BodyFormat.OTHER) throw errors.wire().contentType(response.code(), Bodies.describe(type));
            if (format == BodyFormat.EVENT_STREAM) {
                readStream(body.source(), partial, listener);
                return completion(request, partial.reply(), false);
            }
            Reply reply = cut(wire.parseMessage(Bodies.readCapped(body.source(), MAX_BODY_BYTES)));
            if (!reply.text().isEmpty()) listener.onDelta(reply.text());
            return completion(request, reply, false);
        } catch (ServerError e) {
            throw errors.reported(e.error(), partial.text());
        } catch (IOException e) {
            if (current.cancelled()) return completion(request, partial.reply(), true);
            if (call.isCanceled()) throw errors.wire().deadline(settings.callDeadline(), partial.text(), e);
            throw errors.wire().io(e, partial.text());
        }
    }

    private RuntimeException httpError(Response response) throws IOException {
        String body = response.peekBody(ERROR_BODY_LIMIT).string();
        return errors.http(response.code(), response.headers(), wire.error(body), body);
    }

    /** A whole reply longer than {@link #MAX_REPLY_CHARS}, cut there as a stream would be. */
    private static Reply cut(Reply reply) {
        if (reply.text().length() <= MAX_REPLY_CHARS) return reply;
        int end = MAX_REPLY_CHARS;
        if (Character.isHighSurrogate(reply.text().charAt(end - 1))) end--;
        return new Reply(reply.text().substring(0, end), reply.model(), AnthropicStream.CUT, reply.usage(), false);
    }

    private static void readStream(BufferedSource source, AnthropicStream acc, StreamListener listener)
            throws IOException {
        SseEventParser sse = new SseEventParser();
        SseEventParser.Line line;
        while (!acc.done() && (line = SseEventParser.nextLine(source)) != null) {
            String data = line.cut() ? sse.cutLine(line.text()) : sse.line(line.text());
            if (sse.cut()) deliver(acc.acceptCut(data), listener);   // a too-large event: keep what fit, end there
            else if (data != null) deliver(acc.accept(data), listener);
        }
        String rest = sse.finish();
        if (rest != null && !acc.done()) deliver(acc.accept(rest), listener);
        if (!acc.done()) throw new ReplyException(ReplyException.TRUNCATED, "no message_stop", null);
    }

    private static void deliver(String delta, StreamListener listener) {
        if (!delta.isEmpty()) listener.onDelta(delta);
    }

    private Request httpRequest(LlmRequest request, boolean stream) {
        byte[] body = wire.requestBody(settings.model(), request, stream).getBytes(StandardCharsets.UTF_8);
        return headers(new Request.Builder().url(messagesUrl).post(RequestBody.create(body, JSON)), stream).build();
    }

    /** The headers of every request: the key (only when set, and only as x-api-key) and the API version. */
    private Request.Builder headers(Request.Builder builder, boolean stream) {
        builder.header("anthropic-version", API_VERSION)
                .header("accept", stream ? "text/event-stream" : "application/json");
        if (!settings.apiKey().isEmpty()) builder.header("x-api-key", settings.apiKey());
        return builder;
    }

    private Completion completion(LlmRequest request, Reply reply, boolean interrupted) {
        String model = reply.model().isEmpty() ? settings.model() : reply.model();
        return new Completion(reply.text(), usage(request, reply), model, reply.finishReason(), interrupted);
    }

    /**
     * The server's usage when it is plausible and final; its prompt count with an estimated reply count when the
     * reply's count is not final (cancelled, cut, or message_delta never came); otherwise an estimate. Never 0 for
     * a real call: even an empty reply cost a token.
     */
    private static Usage usage(LlmRequest request, Reply reply) {
        ServerUsage server = reply.usage();
        if (server == null || server.promptTokens() <= 0) {
            return new Usage(Math.max(1, TokenEstimator.estimate(request.messages())),
                    Math.max(1, TokenEstimator.estimate(reply.text())), true);
        }
        int prompt = server.promptTokens();
        int cached = Math.min(server.cacheReadTokens(), prompt);
        if (reply.outputFinal() && (server.outputTokens() > 0 || reply.text().isEmpty())) {
            return new Usage(prompt, server.outputTokens(), false, cached);
        }
        int output = Math.max(1, Math.max(server.outputTokens(), TokenEstimator.estimate(reply.text())));
        return new Usage(prompt, output, true, cached);
    }

    private static Supplier<OkHttpClient> constant(OkHttpClient http) {
        return () -> http;
    }
}
